// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerViews
import TabServerWeb

/// What answering with a page takes: the renderer, the languages, the files, the cache of
/// finished pages, what installs the app, and the header values every tab page carries,
/// worked out once.
struct PageServing: Sendable {
    /// The bytes `answers` holds at most: about 1,500 visitors' tab pages (with their
    /// gzip'd copies, some 3,000).
    static let answerBytes = 16 << 20

    let views: PageRenderer
    let localizer: Localizer
    let files: StaticFiles
    /// Finished tab pages, so a page seen again costs a look-up (see `PageAnswerCache`).
    let answers = PageAnswerCache(capacity: Self.answerBytes)
    /// The web app manifest and the service worker, generated from the model and files.
    let installed: InstalledAppFiles
    /// The offline cache key the service worker's requests get (nil: no worker).
    let offlineKey: OfflineCacheKey?
    /// What the app adds to every page's variant (`Application.pageVariant`).
    let variantPart: PageVariantPart?
    /// Every page's `Vary`, when the platform is chosen per request, and when it is not.
    let varyByPlatform: String
    let varyFixedPlatform: String
    /// Every page's `Speculation-Rules` value: the rules' URL, quoted.
    let speculationRules: String
}
