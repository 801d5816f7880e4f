// SPDX-License-Identifier: Apache-2.0
/// Why a stream's request is refused, with the status its answer carries.
public enum HTTP2Refusal: Sendable, Equatable {
    /// More header bytes or fields than the limits allow: 431.
    case headersTooLarge
    /// A body past the limit: 413.
    case bodyTooLarge

    /// The HTTP status code of the answer.
    public var status: Int {
        switch self {
        case .headersTooLarge: 431
        case .bodyTooLarge: 413
        }
    }
}
