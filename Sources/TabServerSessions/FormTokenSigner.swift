// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerCrypto

/// Form tokens for pages shown to a visitor with no stored session: nothing is stored
/// for them, so the token is checked by its signature instead of against a session.
///
/// A token is 16 bytes, the size of a session's own token (so pages carry either in
/// the same field): the hour it was made (4 bytes, big-endian hours since 1970) and
/// the first 12 bytes of HMAC-SHA256 over that hour under the key. Every cookieless
/// page of the same hour carries the same token, so such pages stay cacheable. Any
/// instance with the same secret accepts it: several instances behind a load balancer
/// must be given the same `--csrf-secret`; a random key (the default) is good for one.
///
/// What it proves: the form was made by this deployment within `maxAge`. What it cannot
/// prove without a cookie: which browser it was given to. That is acceptable because a
/// post with such a token can only start a new session (it never reads or changes a
/// stored one); posts from other origins are refused by `Sec-Fetch-Site` and `Origin`.
/// A signed-in visitor's post changes their stored record, so their pages carry a token
/// signed for them (`token(now:user:)`): the shared token, which anyone can fetch, is
/// never taken for a user, nor one user's for another.
///
/// ```swift
/// let signer = FormTokenSigner(secret: Array("a long shared secret".utf8))
/// let token = signer.token(now: now)
/// signer.isValid(token, now: now, maxAge: 86_400)   // true
/// ```
public struct FormTokenSigner: Sendable {
    private let key: [UInt8]
    /// The tokens of the last hours asked for: every cookieless page of an hour carries the
    /// same token, so it is signed once an hour instead of once a page (OpenSSL's HMAC
    /// fetches its algorithm on each call: most of a cookieless page's CPU).
    private let recent = RecentTokens()
    /// Tokens are made per hour.
    static let slot: Int64 = 3_600
    /// The shortest secret accepted from configuration.
    public static let minimumSecretLength = 32

    /// A signer whose key is derived from `secret` (SHA-256 of a label and the secret).
    public init(secret: [UInt8]) {
        key = Digest.sha256(Array("tabserver form token v1\n".utf8) + secret)
    }

    /// A signer with a random key: tokens are accepted by this process only.
    public static func random() -> FormTokenSigner {
        FormTokenSigner(secret: SecureRandom.bytes(32))
    }

    /// The token for pages made at `now` (seconds since 1970).
    public func token(now: Int64) -> SessionID {
        token(hour: Self.hour(now: now))
    }

    /// The token for the pages of signed-in `user` made at `now`: the hour, then the first
    /// 12 bytes of HMAC-SHA256 over the hour and the user's name (signed on each call: a
    /// signed-in visitor's pages are made for them alone).
    public func token(now: Int64, user: String) -> SessionID {
        sign(hour: Self.hour(now: now), user: user)
    }

    /// The hour whose token `token(now:)` gives: the same token for all of it.
    public static func hour(now: Int64) -> UInt32 {
        UInt32(truncatingIfNeeded: max(0, now) / slot)
    }

    /// Whether `token` was made by this key at most `maxAge` seconds before `now` (an
    /// hour ahead is tolerated for instances whose clocks differ).
    /// `user`: the signed-in visitor posting (nil: anonymous), whose token must be the one
    /// signed for them.
    public func isValid(_ token: SessionID, now: Int64, maxAge: Int64, user: String? = nil) -> Bool {
        let bytes = token.bytes
        let hour = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let current = max(0, now) / Self.slot
        guard Int64(hour) <= current + 1, (current - Int64(hour)) * Self.slot <= maxAge else { return false }
        let expected = user.map { sign(hour: hour, user: $0) } ?? self.token(hour: hour)
        return expected.constantTimeEquals(token)
    }

    private func token(hour: UInt32) -> SessionID {
        if let known = recent.token(for: hour) { return known }
        let made = sign(hour: hour)
        recent.remember(made, for: hour)
        return made
    }

    /// How many tokens were signed (not found among the recent ones), for tests.
    var signedCount: Int { recent.signed.load(ordering: .relaxed) }

    /// The hour's token; with `user`, the token of that user's pages (the name after a
    /// byte no name holds, so no anonymous hour's message is a user's).
    private func sign(hour: UInt32, user: String? = nil) -> SessionID {
        let hourBytes: [UInt8] = [
            UInt8(truncatingIfNeeded: hour >> 24), UInt8(truncatingIfNeeded: hour >> 16),
            UInt8(truncatingIfNeeded: hour >> 8), UInt8(truncatingIfNeeded: hour),
        ]
        let message = user.map { hourBytes + [0] + Array($0.utf8) } ?? hourBytes
        let mac = HMAC.sha256(key: key, message: message)
        return SessionID(bytes: hourBytes + mac.prefix(12))!
    }
}

/// The last few hours' tokens of one signer (the current, the previous one a form may
/// still carry, and one ahead for clocks that differ).
private final class RecentTokens: Sendable {
    private let tokens = Mutex<[(hour: UInt32, token: SessionID)]>([])
    let signed = Atomic<Int>(0)

    func token(for hour: UInt32) -> SessionID? {
        tokens.withLock { tokens in tokens.first { $0.hour == hour }?.token }
    }

    func remember(_ token: SessionID, for hour: UInt32) {
        signed.add(1, ordering: .relaxed)
        tokens.withLock { tokens in
            tokens.removeAll { $0.hour == hour }
            tokens.append((hour, token))
            if tokens.count > 3 { tokens.removeFirst(tokens.count - 3) }
        }
    }
}
