// SPDX-License-Identifier: Apache-2.0
/// The HTTP/2 error codes the server sends in RST_STREAM and GOAWAY (RFC 9113 §7).
public enum HTTP2ErrorCode: UInt32, Sendable {
    case noError = 0
    case protocolError = 1
    case internalError = 2
    case refusedStream = 7
    case cancel = 8
    case enhanceYourCalm = 0xb
}
