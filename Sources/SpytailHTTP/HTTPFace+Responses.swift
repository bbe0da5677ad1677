import HTTPTypes
import Hummingbird
import NIOCore

/// How every answer is made: status, type, no caching, no sniffing; dashboard files with their security headers.
extension HTTPFace {
    static func response(_ status: HTTPResponse.Status, _ bytes: [UInt8], type: String) -> Response {
        var response = Response(status: status, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        response.headers[.contentType] = type
        response.headers[.cacheControl] = "no-store"
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }

    static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        response(status, Array(text.utf8), type: "text/plain; charset=utf-8")
    }

    static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        response(status, Array(text.utf8), type: "application/json")
    }

    static func json(_ status: HTTPResponse.Status, _ json: JSONText) -> Response {
        response(status, json.bytes, type: "application/json")
    }

    /// The Content-Security-Policy of every dashboard file: scripts and styles from this origin only (no inline
    /// code, no eval), no plug-ins, no framing, connections to this origin only.
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static func asset(_ asset: DashboardAssets.Asset) -> Response {
        var response = self.response(.ok, asset.bytes, type: asset.type)
        response.headers[.contentSecurityPolicy] = contentSecurityPolicy
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return response
    }
}
