// SPDX-License-Identifier: Apache-2.0
import CPicoHTTPParser

/// picohttpparser's scratch space for the fields of one head, allocated once per event
/// loop (the heads it parses are copied out of it before the next one). Its pointer
/// never leaves this module.
package final class HeadFields {
    let pointer: UnsafeMutablePointer<phr_header>

    package init() {
        pointer = .allocate(capacity: RequestHead.maximumFields + 1)
    }

    deinit { pointer.deallocate() }
}
