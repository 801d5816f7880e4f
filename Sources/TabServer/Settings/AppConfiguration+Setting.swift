// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerHTTP

extension AppConfiguration {
    /// One row of the settings list: its flag, environment variable, default and meaning.
    /// `--help` prints the list and a test holds the README's "Configuration" table to it,
    /// so adding a setting is adding one `Setting` to `AppConfiguration.settings`.
    public struct Setting: Sendable {
        /// The flag without dashes: `port` is `--port`.
        public let flag: String
        /// The environment variable (`TABSERVER_PORT`).
        public let environment: String
        /// Further environment variables read with less priority (`PORT`).
        public let alsoEnvironment: [String]
        /// The default as people read it (`8080`, `one per core`, `(none)`).
        public let defaultValue: String
        /// What the setting means, one line.
        public let help: String
        /// Parses the value into the configuration; a bad value throws the problem
        /// (the flag is added by the caller).
        let apply: @Sendable (inout AppConfiguration, String) throws(ConfigurationError) -> Void

        init(
            flag: String, environment: String, also alsoEnvironment: [String] = [], defaultValue: String,
            help: String, apply: @escaping @Sendable (inout AppConfiguration, String) throws(ConfigurationError) -> Void
        ) {
            self.flag = flag
            self.environment = environment
            self.alsoEnvironment = alsoEnvironment
            self.defaultValue = defaultValue
            self.help = help
            self.apply = apply
        }
    }
}
