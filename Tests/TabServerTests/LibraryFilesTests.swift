// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import Testing

/// Where the library finds its own templates, styles and locales when an app's working
/// directory does not hold them (an app under development runs from its own folder).
@Suite("The library's own files")
struct LibraryFilesTests {
    @Test("the checkout the library was built from holds its templates and styles")
    func checkout() {
        #expect(
            LibraryFiles.holdsLibraryFiles(LibraryFiles.checkout),
            "\(LibraryFiles.checkout) holds no Templates/layout.mustache or Public/css/app.css")
    }

    @Test("an app's folder without them resolves to the checkout; TABSERVER_ROOT wins over both")
    func resolution() {
        #expect(LibraryFiles.resolveRoot(environment: ["TABSERVER_ROOT": "/srv/shop"]) == "/srv/shop")
        // The tests run from the repository's root, which holds the files itself.
        #expect(LibraryFiles.resolveRoot(environment: [:]) == ".")
    }
}
