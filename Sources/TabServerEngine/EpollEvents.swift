// SPDX-License-Identifier: Apache-2.0

/// epoll's event bits (sys/epoll.h), as plain numbers.
enum EpollEvents {
    static let input: UInt32 = 0x001
    static let output: UInt32 = 0x004
    static let error: UInt32 = 0x008
    static let hangUp: UInt32 = 0x010
    static let readHangUp: UInt32 = 0x2000
    static let exclusive: UInt32 = 1 << 28
}
