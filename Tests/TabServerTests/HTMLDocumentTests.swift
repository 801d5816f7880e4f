// SPDX-License-Identifier: Apache-2.0
import TabServerTesting
import Testing

@Suite("HTMLDocument: reading a page and querying it with selectors")
struct HTMLDocumentTests {
    /// A page in the shape the server writes: a bar of buttons after the content.
    static let page = HTMLDocument(
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>Music · Store</title>
        <link rel="stylesheet" href="/css/app.css?v=1">
        </head>
        <body class="has-accessory more-compact">
        <header class="app-header"><a class="back-link back-to-more" href="/more" rel="up">More</a></header>
        <main id="main" class="app-content">
        <h1 class="app-title">Music</h1>
        <ul class="rows">
        <li class="row"><a class="row-link" href="/tabs/music/albums/1" data-kind="album">Northern Lights</a></li>
        <li class="row is-new"><a class="row-link" href="/tabs/music/albums/2" data-kind="album">Sodium</a></li>
        <li class="row"><a class="row-link" href="https://example.com/" data-kind="outside">Elsewhere</a></li>
        </ul>
        </main>
        <nav class="tab-bar has-more-compact" aria-label="Tab bar">
        <form method="post" action="/select">
        <ul class="tab-items">
        <li class="tab-item"><button type="submit" name="tab" value="featured" class="tab">Featured</button></li>
        <li class="tab-item"><button type="submit" name="tab" value="music" class="tab is-selected" aria-current="page">Music</button></li>
        <li class="tab-item tab-more"><button type="submit" name="more" value="1" class="tab">More</button></li>
        </ul>
        </form>
        </nav>
        </body>
        </html>
        """)

    static func values(_ elements: [HTMLElement], _ attribute: String = "value") -> [String] {
        elements.map { $0.attribute(attribute) ?? "-" }
    }

    @Test("a page: doctype, nested elements, attributes in order, title and text")
    func structure() throws {
        let document = Self.page
        #expect(document.doctype == "html")
        #expect(document.children.map(\.name) == ["html"])
        #expect(document.title == "Music · Store")
        let html = try #require(document.children.first)
        #expect(html.children.map(\.name) == ["head", "body"])
        let link = try #require(try document.first("link"))
        #expect(link.attributes.map(\.name) == ["rel", "href"])
        #expect(link.children.isEmpty)
        #expect(try document.first("body")?.classes == ["has-accessory", "more-compact"])
        #expect(try document.first("ul.rows")?.text == "Northern Lights Sodium Elsewhere")
        #expect(try document.first("nav")?.attribute("ARIA-LABEL") == "Tab bar")
    }

    @Test("void elements and self-closing tags hold nothing; what follows is their sibling")
    func voidElements() throws {
        let document = HTMLDocument(
            #"<div>one<br>two<img src="a.png" alt=""><input name=q>three<hr/><svg><path d="M0 0"/><circle r="1"/></svg></div>"#
        )
        let division = try #require(try document.first("div"))
        #expect(division.children.map(\.name) == ["br", "img", "input", "hr", "svg"])
        #expect(division.text == "onetwothree")
        #expect(division.ownText == "onetwothree")
        #expect(try document.first("svg")?.children.map(\.name) == ["path", "circle"])
        #expect(try document.select("div > *").count == 5)
        #expect(try document.select("br, img, input, hr, path, circle").allSatisfy { $0.nodes.isEmpty })
    }

    @Test("script and style content is text: markup inside it is not parsed, and a page's text leaves it out")
    func rawText() throws {
        let document = HTMLDocument(
            """
            <div id="a">before<script>if (a < b && c > d) { html = '<li class="item">x</li></div>'; }</script>after</div>
            <style>nav > a { color: red }</style><p>shown</p>
            """)
        #expect(try document.select("li").isEmpty)
        #expect(try document.select("div").count == 1)
        let script = try #require(try document.first("#a > script"))
        #expect(script.text == #"if (a < b && c > d) { html = '<li class="item">x</li></div>'; }"#)
        #expect(try document.first("#a")?.text == "beforeafter")
        #expect(try document.first("style")?.text == "nav > a { color: red }")
        #expect(document.text == "beforeafter shown")
    }

    @Test("character references are decoded in text and in attribute values")
    func characterReferences() throws {
        let document = HTMLDocument(
            """
            <p title="Tom &amp; Jerry&#39;s &quot;show&quot;" data-x='&lt;b&gt; &#x41;&#65;'>a &amp; b &lt;c&gt; &quot;d&quot; &#39;e&apos; f&nbsp;g &#233;&#x1F600; &unknown; &amp fish &#0;</p>
            """)
        let paragraph = try #require(try document.first("p"))
        #expect(paragraph.attribute("title") == #"Tom & Jerry's "show""#)
        #expect(paragraph.attribute("data-x") == "<b> AA")
        #expect(paragraph.text == "a & b <c> \"d\" 'e' f\u{A0}g é😀 &unknown; &amp fish \u{FFFD}")
        #expect(try document.first(#"[title="Tom & Jerry's \"show\""]"#) != nil)
    }

    @Test("attributes: double-quoted, single-quoted, unquoted, boolean; names lowercased; the first of a name wins")
    func attributes() throws {
        let document = HTMLDocument(
            #"<button TYPE="submit" name='tab' value=music disabled data-path=/tabs/a/b class=" tab  is-selected " name="other">x</button>"#
        )
        let button = try #require(try document.first("button"))
        #expect(button.attributes.map(\.name) == ["type", "name", "value", "disabled", "data-path", "class"])
        #expect(button.attribute("type") == "submit")
        #expect(button.attribute("name") == "tab")
        #expect(button.attribute("value") == "music")
        #expect(button.attribute("disabled") == "")
        #expect(button.hasAttribute("disabled"))
        #expect(button.attribute("data-path") == "/tabs/a/b")
        #expect(button.attribute("hidden") == nil)
        #expect(button.classes == ["tab", "is-selected"])
        #expect(
            button.description
                == #"<button type="submit" name="tab" value="music" disabled data-path="/tabs/a/b" class=" tab  is-selected ">"#
        )
    }

    @Test("comments are nodes of their own, not markup or text")
    func comments() throws {
        let document = HTMLDocument("<div><!-- <p>not a paragraph</p> -->kept<!----><!--></div>")
        let div = try #require(try document.first("div"))
        #expect(try document.select("p").isEmpty)
        #expect(div.text == "kept")
        let comments = div.nodes.compactMap { node -> String? in
            if case .comment(let text) = node { text } else { nil }
        }
        #expect(comments == [" <p>not a paragraph</p> ", "", ""])
    }

    @Test("end tags: one closes the nearest open element of its name, a stray one is ignored, omitted ones are implied")
    func lenientEndTags() throws {
        let document = HTMLDocument(
            """
            <div id="outer"><span>unclosed</div><p id="after">x</span>y</p>
            <ul id="list"><li>one<li>two<ul><li>inner</ul><li>three</ul>
            <p id="open">paragraph<div id="block">block</div>
            <table><tr><td>a<td>b<tr><td>c</table>
            <section id="unclosed"><b>to the end
            """)
        #expect(try document.first("#outer")?.text == "unclosed")
        #expect(try document.first("#outer > span") != nil, "</div> closed the span inside it too")
        #expect(try document.first("#after")?.text == "xy", "the stray </span> is ignored")
        #expect(try document.select("#list > li").map(\.ownText) == ["one", "two", "three"])
        #expect(try document.select("#list > li > li").isEmpty, "an item is not inside the one before it")
        #expect(try document.select("#list > li > ul > li").map(\.text) == ["inner"])
        #expect(try document.first("#open")?.text == "paragraph", "a <div> ends an open paragraph")
        #expect(try document.first("#block") != nil)
        #expect(try document.first("#open #block") == nil)
        #expect(try document.select("tr").map(\.text) == ["ab", "c"])
        #expect(try document.select("td").count == 3)
        #expect(try document.first("#unclosed b")?.text == "to the end")
    }

    @Test("simple selectors: type, *, class, id, and each attribute test")
    func simpleSelectors() throws {
        let document = Self.page
        func names(_ selector: String) throws -> [String] { try document.select(selector).map(\.text) }
        #expect(try document.select("button").count == 3)
        #expect(try document.select("BUTTON").count == 3, "element names in any case")
        #expect(try document.select("*").count == (try document.first("html")?.select("*").count ?? 0) + 1)
        #expect(try names(".row-link") == ["Northern Lights", "Sodium", "Elsewhere"])
        #expect(try names(".is-new") == ["Sodium"])
        #expect(try names(".row.is-new") == ["Sodium"])
        #expect(try names(".is") == [], "a class is a whole word, not a part of one")
        #expect(try document.first("#main")?.name == "main")
        #expect(try document.select("#mai").isEmpty)
        #expect(try Self.values(document.select("[aria-current]")) == ["music"])
        #expect(try Self.values(document.select("[name=tab]")) == ["featured", "music"])
        #expect(try Self.values(document.select(#"[name="tab"]"#)) == ["featured", "music"])
        #expect(try Self.values(document.select("[name='tab']")) == ["featured", "music"])
        #expect(try Self.values(document.select("[name=TAB i]")) == ["featured", "music"])
        #expect(try Self.values(document.select("[name=TAB]")) == [], "values are compared as written")
        #expect(try names(#"[href^="/tabs/"]"#) == ["Northern Lights", "Sodium"])
        #expect(try names("[href$='/2']") == ["Sodium"])
        #expect(try names("[href*=example]") == ["Elsewhere"])
        #expect(try names("[href^='']") == [], "an empty prefix matches nothing, as in CSS")
        #expect(try Self.values(document.select("[class~=is-selected]")) == ["music"])
        #expect(try Self.values(document.select("[class~=is]")) == [])
        #expect(try Self.values(document.select("[class=tab]")) == ["featured", "1"])
    }

    @Test("compounds, combinators and lists: document order, each element once")
    func combinators() throws {
        let document = Self.page
        #expect(
            try document.select(#"a.row-link[href^="/tabs/"][data-kind=album]"#).map(\.text) == [
                "Northern Lights", "Sodium",
            ])
        #expect(try Self.values(document.select("nav.tab-bar button[aria-current=page]")) == ["music"])
        #expect(try document.select("nav.tab-bar > button").isEmpty, "the buttons are not the nav's children")
        #expect(try document.select("nav.tab-bar > form > ul > li > button").count == 3)
        #expect(try document.select("nav li").count == 3)
        #expect(try document.select("main li").count == 3)
        #expect(try document.select("body li").count == 6)
        #expect(try document.select("ul li").count == 6)
        #expect(try document.select("html body ul li").count == 6)
        // Lists come back in document order, each element once, whatever order they are written in.
        #expect(try document.select("nav, main, h1, main").map(\.name) == ["main", "h1", "nav"])
        #expect(try document.select(".tab-more, li.row, .row").count == 4)
        #expect(try document.select("li, ul li, li.row").count == 6)
        // Nested matches of a descendant step are not counted twice.
        let nested = HTMLDocument("<div id=a><div id=b><div id=c><p id=p>x</p></div></div></div>")
        #expect(try nested.select("div div").map { $0.attribute("id") ?? "" } == ["b", "c"])
        #expect(try nested.select("div p").map { $0.attribute("id") ?? "" } == ["p"])
        #expect(try nested.select("div > div > p").map { $0.attribute("id") ?? "" } == ["p"])
        #expect(try nested.select("#a > p").isEmpty)
    }

    @Test("an element's own queries search inside it only, selectors included")
    func elementQueries() throws {
        let bar = try #require(try Self.page.first("nav.tab-bar"))
        #expect(try bar.select("li").count == 3)
        #expect(try bar.first("[aria-current=page]")?.attribute("value") == "music")
        #expect(try bar.select("nav button").isEmpty, "the nav is the element searched, not inside it")
        #expect(try bar.select("form button").count == 3)
        #expect(try bar.first("a") == nil)
    }

    @Test(
        "an invalid selector throws naming the selector and where, never matches nothing",
        arguments: [
            ("", 0), ("   ", 3), ("a[href", 6), ("a[href=", 7), ("[href=\"x]", 9), ("a,", 2), (",a", 0), ("a,,b", 2),
            ("a >", 3), ("> a", 0), ("a > > b", 4), ("li:first-child", 2), ("a + b", 2), ("a ~ b", 2),
            ("[x|=y]", 2), ("a)", 1), (".", 1), ("#", 1), ("[]", 1), ("[1a]", 1), ("a..b", 2), ("[x=y z]", 5),
            ("1a", 0),
        ])
    func invalidSelector(selector: String, position: Int) {
        let thrown = #expect(throws: HTMLSelectorError.self) { try Self.page.select(selector) }
        #expect(thrown?.selector == selector)
        #expect(thrown?.position == position, "\(String(describing: thrown))")
        #expect(thrown?.description.hasPrefix("invalid selector \"\(selector)\" at \(position): ") == true)
        #expect(throws: HTMLSelectorError.self) { try Self.page.first(selector) }
        #expect(throws: HTMLSelectorError.self) { try Self.page.children[0].select(selector) }
    }

    @Test("escapes and lenient names in selectors")
    func selectorSyntax() throws {
        let document = HTMLDocument(#"<p id="1st" class="a:b">x</p><p data-n="3">y</p>"#)
        #expect(try document.first("#1st")?.text == "x")
        #expect(try document.first(#".a\:b"#)?.text == "x")
        #expect(try document.first(#".a\3A b"#)?.text == "x")
        #expect(try document.first("[data-n=3]")?.text == "y")
        #expect(try document.first(" p[data-n = '3' ] ")?.text == "y")
    }

    @Test("where a search of the body finds the right words in the wrong place, a query does not")
    func substringsMislead() throws {
        // The header's More link is current on More, and a script carries an item's markup:
        // the body contains both spellings, yet no bar item is current and the list is empty.
        let body = """
            <header><a class="header-more" href="/more" aria-current="page">More</a></header>
            <main><ul class="items"></ul>
            <script>const template = '<li class="item">Heat</li>';</script>
            <!-- <nav class="tab-bar"> is drawn by the layout --></main>
            <nav class="tab-bar"><button name="tab" value="music" class="tab">Music</button></nav>
            """
        let page = HTMLDocument(body)
        #expect(body.contains(#"aria-current="page""#))
        #expect(body.contains(#"<li class="item">Heat</li>"#))
        #expect(try page.first("nav.tab-bar [aria-current=page]") == nil)
        #expect(try page.select("ul.items > li.item").isEmpty)
        #expect(try page.select("nav.tab-bar").count == 1, "a comment is not markup")
    }
}
