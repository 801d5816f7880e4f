// SPDX-License-Identifier: Apache-2.0
// The engine's and TLS's settings (`HTTPServerConfiguration`, `TLSSettings`) live in a
// target without the engine, so the app's configuration can hold them without linking
// the loops; every user of the engine needs them, so they come with it.
@_exported import TabServerEngineConfiguration
