// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerTabBar
import TabServerViews
import TabServerWeb

extension PageServing {
    /// The variant of `request`'s page in the language numbered `language`, for the model of
    /// `generation` whose platform style is `style` (see `PageVariant`): made once where a
    /// page is made or looked up, from nothing but the request and these.
    func variant(
        _ request: HTTPRequest, language: Int, generation: Int, style: TabBarAppearance.PlatformStyle
    ) -> PageVariant {
        let platform: TabBarAppearance.PlatformStyle =
            switch style {
            case .automatic: request.clientPlatform == .android ? .material : .ios
            case .ios, .material: style
            }
        return PageVariant(
            language: language, platform: platform, app: variantPart?.decide(request) ?? "",
            generation: generation)
    }

    /// The variant of a page rendered on `model`'s snapshot.
    func variant(_ request: HTTPRequest, language: Int, model: ModelSnapshot) -> PageVariant {
        variant(
            request, language: language, generation: model.generation,
            style: model.controller.model.appearance.platformStyle)
    }

    /// The variant of the page of `state`'s request in `language`, on its model.
    func variant(_ state: borrowing RequestState, _ language: Language) -> PageVariant {
        variant(state.request, language: language.number, model: state.model)
    }

    /// `Vary` of every page: the fields a page's variant may come from, under the model's
    /// platform style `style`.
    func vary(_ style: TabBarAppearance.PlatformStyle) -> String {
        style == .automatic ? varyByPlatform : varyFixedPlatform
    }
}
