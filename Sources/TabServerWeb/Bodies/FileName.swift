// SPDX-License-Identifier: Apache-2.0

/// Upload file names made safe to show and to store under: the browser's name is the
/// visitor's to choose, so it may hold directories, `..`, control or bidi characters.
public enum FileName {
    /// The last path component (after `/` or `\`), without control characters (C0, C1,
    /// DEL) or bidirectional overrides, with leading dots removed, cut to 255 bytes at a
    /// character boundary; "upload" when nothing is left.
    public static func sanitized(_ name: String) -> String {
        let base = name.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }.last ?? ""
        var kept = String.UnicodeScalarView()
        for scalar in base.unicodeScalars {
            let value = scalar.value
            let isControl = value < 0x20 || (0x7F...0x9F).contains(value)
            let isBidi =
                (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E
                || value == 0x200F
            if !isControl && !isBidi { kept.append(scalar) }
        }
        var text = String(kept)
        while text.hasPrefix(".") { text.removeFirst() }
        text = text.trimmingCharacters(in: " ")
        var cut = ""
        for character in text {
            guard cut.utf8.count + character.utf8.count <= 255 else { break }
            cut.append(character)
        }
        return cut.isEmpty ? "upload" : cut
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
