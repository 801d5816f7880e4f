// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb
import Testing

@Suite("Codable request bodies: FormDecoder and request.decode(as:)")
struct FormDecoderTests {
    struct Habit: Decodable, Equatable {
        var name: String
        var perWeek: Int
        var shared: Bool
        var note: String?
        var tags: [String]
    }

    func post(_ contentType: String, _ body: String) -> HTTPRequest {
        var headers = HTTPHeaders()
        headers.add("Content-Type", contentType)
        return HTTPRequest(method: .post, path: "/", headers: headers, body: Array(body.utf8))
    }

    func decodingError(_ make: () throws -> Void) -> RequestDecodingError? {
        do {
            try make()
        } catch let error as RequestDecodingError {
            return error
        } catch {
            Issue.record("unexpected \(error)")
        }
        return nil
    }

    @Test("a form as a browser sends it: numbers and booleans parsed, repeated names an array, an unticked box false")
    func form() throws {
        let form = "name=Read&perWeek=+3+&shared=on&tags=a&tags=b&csrf=x"
        let habit = try post(MediaType.urlEncodedForm, form).decode(as: Habit.self)
        #expect(habit == Habit(name: "Read", perWeek: 3, shared: true, note: nil, tags: ["a", "b"]))
        let unticked = try post(MediaType.urlEncodedForm, "name=Run&perWeek=1&note=").decode(as: Habit.self)
        #expect(unticked.shared == false)
        #expect(unticked.note == nil, "an empty optional is nil")
        #expect(unticked.tags == [])
    }

    @Test("every field at fault is named at once: 422")
    func formErrors() {
        let error = decodingError {
            _ = try post(MediaType.urlEncodedForm, "name=&perWeek=often&shared=maybe").decode(as: Habit.self)
        }
        #expect(error?.status == .unprocessableContent)
        #expect(Set(error?.fieldErrors.map(\.field) ?? []) == ["name", "perWeek", "shared"])
        #expect(error?.fieldErrors.first { $0.field == "perWeek" }?.message.contains("whole number") == true)
    }

    struct Widths: Decodable, Equatable {
        var a: Int8
        var b: Int16
        var c: Int32
        var d: Int64
        var e: UInt
        var f: UInt8
        var g: UInt16
        var h: UInt32
        var i: UInt64
        var j: Float
    }

    @Test("every integer width decodes from a form; one out of its range is a 422 naming the range")
    func integerWidths() throws {
        let form = "a=-128&b=32767&c=-5&d=9000000000&e=7&f=255&g=65535&h=4000000000&i=18446744073709551615&j=1.5"
        let widths = try post(MediaType.urlEncodedForm, form).decode(as: Widths.self)
        #expect(
            widths
                == Widths(
                    a: -128, b: 32767, c: -5, d: 9_000_000_000, e: 7, f: 255, g: 65535, h: 4_000_000_000,
                    i: .max, j: 1.5))
        let error = decodingError {
            _ = try post(MediaType.urlEncodedForm, "a=128&b=1&c=1&d=1&e=-1&f=256&g=1&h=1&i=1&j=x").decode(
                as: Widths.self)
        }
        #expect(Set(error?.fieldErrors.map(\.field) ?? []) == ["a", "e", "f", "j"])
        #expect(
            error?.fieldErrors.first { $0.field == "f" }?.message
                == "“f” must be a whole number from 0 to 255, not “256”.")
    }

    struct Choice: Decodable, Equatable {
        enum Sort: String, Decodable { case newest, title }
        enum Size: Int, Decodable {
            case small = 1
            case large = 2
        }
        var sort: Sort
        var size: Size?
    }

    @Test("a choice (radio buttons, a select) decodes into a String or Int enum; one not offered is a 422 naming it")
    func choices() throws {
        let chosen = try post(MediaType.urlEncodedForm, "sort=title&size=2").decode(as: Choice.self)
        #expect(chosen == Choice(sort: .title, size: .large))
        #expect(try post(MediaType.urlEncodedForm, "sort=newest").decode(as: Choice.self).size == nil)
        let unknown = decodingError { _ = try post(MediaType.urlEncodedForm, "sort=oldest").decode(as: Choice.self) }
        #expect(unknown?.fieldErrors.map(\.field) == ["sort"])
        #expect(unknown?.fieldErrors.first?.message.contains("oldest") == true)
        let missing = decodingError { _ = try post(MediaType.urlEncodedForm, "size=1").decode(as: Choice.self) }
        #expect(missing?.fieldErrors.map(\.field) == ["sort"])
        #expect(missing?.fieldErrors.first?.message.contains("missing") == true)
        let notNumber = decodingError {
            _ = try post(MediaType.urlEncodedForm, "sort=title&size=big").decode(as: Choice.self)
        }
        #expect(notNumber?.fieldErrors.map(\.field) == ["size"])
    }

    @Test("the same type from JSON; a mistyped JSON field 422 naming it")
    func json() throws {
        let body = #"{"name":"Read","perWeek":3,"shared":true,"tags":["a"]}"#
        let habit = try post(MediaType.json, body).decode(as: Habit.self)
        #expect(habit == Habit(name: "Read", perWeek: 3, shared: true, note: nil, tags: ["a"]))
        let error = decodingError {
            _ = try post(MediaType.json, #"{"name":"Read","perWeek":"3","shared":true,"tags":[]}"#).decode(
                as: Habit.self)
        }
        #expect(error?.fieldErrors.map(\.field) == ["perWeek"])
    }

    @Test("a body of another type is 415 naming the types taken")
    func unsupported() {
        do {
            _ = try post("text/csv", "a,b").decode(as: Habit.self)
            Issue.record("decoded CSV")
        } catch let error as HTTPError {
            #expect(error.status == .unsupportedMediaType)
            #expect(error.message.contains("application/json"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("a nested type is not a form: refused naming the field, not trapped")
    func nested() {
        struct Outer: Decodable {
            struct Inner: Decodable { var a: Int }
            var inner: Inner
        }
        let error = decodingError { _ = try post(MediaType.urlEncodedForm, "inner=1").decode(as: Outer.self) }
        #expect(error?.fieldErrors.contains { $0.field == "inner" } == true)
    }
}
