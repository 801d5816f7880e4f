// SPDX-License-Identifier: Apache-2.0
// The library product's one import: `import TabServer` brings the app layer, the tab
// model, templates' values, sessions, the HTTP value types and the configuration's
// types (`ProxyTrust`, `RedisConfiguration`), as well as `AppServer`.
@_exported import HTTPTypes
@_exported import Mustache
@_exported import Redis
@_exported import Sessions
@_exported import TabBar
@_exported import TabServerCore
@_exported import Web
