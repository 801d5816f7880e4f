// SPDX-License-Identifier: Apache-2.0
import CSSL

/// The oldest TLS version a listener accepts; nothing older than 1.2 is ever offered.
public enum TLSMinimumVersion: String, Sendable, CaseIterable {
    case tls12 = "1.2"
    case tls13 = "1.3"

    /// OpenSSL's number for the version.
    var openSSLVersion: Int32 {
        switch self {
        case .tls12: TLS1_2_VERSION
        case .tls13: TLS1_3_VERSION
        }
    }
}
