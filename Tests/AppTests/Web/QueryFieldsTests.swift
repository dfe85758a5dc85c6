import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import App

/// My Lists reads its sort and filter from the address with a parser of its own; it must read every
/// address exactly as the form decoder it replaced does, refusals included.
@Suite("Forms: a list's address read as the form decoder reads it")
struct QueryFieldsTests {
    static func request(_ query: String) -> Request {
        Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/library" + query),
            body: RequestBody(buffer: ByteBuffer()))
    }

    @Test(
        "the same fields, or the same 400",
        arguments: [
            "", "?", "?list=all", "?list=all&sort=rating&genre=Drama", "?q=ma+m%C3%A8re&genre=Sci-Fi", "?text=50%25+off%2B",
            "?genre=Drama&genre=Comedy", "?q=%ZZ", "?q=%", "?flag&list=watched", "?=x", "?a[b]=1", "?a[]=1&a[]=2", "?a=1&&b=2",
            "?sort=title&x=%E2%9C%93", "?empty=&list=all", "?k%20ey=v", "?text=%FF", "?q=%C3", "?a%5Bb%5D=1",
            "?a%5B%5D=1", "?%5Bx=1",
        ])
    func sameAsTheDecoder(query: String) {
        let request = Self.request(query)
        let decoded = try? FormInput.decodeQuery([String: String].self, request)
        let read = try? FormInput.queryFields(request)
        #expect(read == decoded, "\(query)")
    }

    @Test("a sorted, filtered list's address gives its fields")
    func listFields() throws {
        let fields = try FormInput.queryFields(Self.request("?list=all&sort=rating&genre=Sci-Fi&text=ma+m%C3%A8re"))
        #expect(fields == ["list": "all", "sort": "rating", "genre": "Sci-Fi", "text": "ma mère"])
    }
}
