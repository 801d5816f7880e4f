// SPDX-License-Identifier: Apache-2.0
// The library product's one import: `import TabServer` brings the app layer and the
// modules its public API is written in: the HTTP values (`HTTPRequest`, `HTTPResponse`,
// `LogSink`), the server's settings (`HTTPServerConfiguration`, `TLSSettings`), the web
// layer (`Router`, `HTTPError`, `FieldError`, `FormData`), the tab model (`Tab`, `TabBarState`), template values (`MustacheValue`), Web Push messages (`PushMessage`), the configuration's
// flags (`AppConfiguration.parse`), and `AppServer`. Sessions, the stores, the engine and
// the C wrappers stay behind it: an app that needs one imports it by name.
@_exported import TabServerAppModel
@_exported import TabServerCore
@_exported import TabServerHTTP
@_exported import TabServerJSON
@_exported import TabServerMustache
@_exported import TabServerPush
@_exported import TabServerSessions
@_exported import TabServerTabBar
@_exported import TabServerViews
@_exported import TabServerWeb
