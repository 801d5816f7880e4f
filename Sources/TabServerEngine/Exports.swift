// SPDX-License-Identifier: Apache-2.0
// Every user of the engine needs the HTTP values and the server's settings
// (`HTTPServerConfiguration`, `TLSSettings`, in TabServerHTTP, without the engine, so the
// app's configuration can hold them without linking the loops): they come with it.
@_exported import TabServerHTTP
