// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar

extension TabGroup {
    /// The group's title in `language`: the locale's title for its id (as a tab's, from
    /// the locale's tab titles), else the model's.
    package func title(in language: Language) -> String {
        language.tabTitles[id] ?? title
    }
}
