#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON document as a tree, so the config reader can name every key's path, check every type, and
/// reject keys it does not know (which `Decodable` alone cannot).
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses UTF-8 JSON text.
    public static func parse(_ bytes: [UInt8]) throws(ConfigErrors) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) {
            let detail = (context.underlyingError.map { "\($0)" } ?? context.debugDescription)
            throw ConfigErrors([ConfigError(.root, .invalidJSON(Self.tidy(detail)))])
        } catch {
            throw ConfigErrors([ConfigError(.root, .invalidJSON("\(error)"))])
        }
    }

    /// The type's name as error messages say it.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Keeps the useful part of Foundation's parser message ("Unexpected character … around line 3, column 5").
    private static func tidy(_ detail: String) -> String {
        if let range = detail.firstRange(of: "NSDebugDescription=") {
            var rest = detail[range.upperBound...]
            if let end = rest.firstIndex(where: { $0 == "," || $0 == "}" }), rest[end] == "}" { rest = rest[..<end] }
            return String(rest)
        }
        return detail
    }
}

extension JSONValue: Decodable {
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let bool = try? single.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? single.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }
}
