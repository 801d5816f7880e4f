// The library product's one import: `import TabServer` brings the app layer, the tab
// model, templates' values and the HTTP value types, as well as `AppServer`.
@_exported import HTTPTypes
@_exported import Mustache
@_exported import Redis
@_exported import TabBar
@_exported import TabServerCore
@_exported import Web
