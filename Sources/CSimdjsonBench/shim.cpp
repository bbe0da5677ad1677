// See include/CSimdjsonBench.h.
#include "CSimdjsonBench.h"
#include <simdjson.h>
#include <string_view>

namespace {
struct Parsers {
    simdjson::dom::parser dom;
    simdjson::ondemand::parser ondemand;
};


/// A value as written: an object's or array's whole text, a scalar's token.
simdjson::error_code raw(simdjson::ondemand::value value, std::string_view &out) {
    simdjson::ondemand::json_type type;
    if (auto error = value.type().get(type)) return error;
    switch (type) {
    case simdjson::ondemand::json_type::object: {
        simdjson::ondemand::object object;
        if (auto error = value.get_object().get(object)) return error;
        return object.raw_json().get(out);
    }
    case simdjson::ondemand::json_type::array: {
        simdjson::ondemand::array array;
        if (auto error = value.get_array().get(array)) return error;
        return array.raw_json().get(out);
    }
    default:
        out = value.raw_json_token();
        return simdjson::SUCCESS;
    }
}
}

extern "C" size_t sjb_padding(void) { return simdjson::SIMDJSON_PADDING; }

extern "C" void *sjb_parser_new(void) {
    try {
        return new Parsers();
    } catch (...) {
        return nullptr;
    }
}

extern "C" void sjb_parser_free(void *parser) { delete static_cast<Parsers *>(parser); }

extern "C" int64_t sjb_dom_members(void *parser, const uint8_t *line, size_t length) {
    auto &p = static_cast<Parsers *>(parser)->dom;
    simdjson::dom::element element;
    if (p.parse(reinterpret_cast<const char *>(line), length, false).get(element) != simdjson::SUCCESS) return -1;
    simdjson::dom::object object;
    if (element.get_object().get(object) != simdjson::SUCCESS) return -1;
    return static_cast<int64_t>(object.size());
}

extern "C" int64_t sjb_ondemand_members(void *parser, const uint8_t *line, size_t length, size_t *ranges, size_t capacity) {
    auto &p = static_cast<Parsers *>(parser)->ondemand;
    const char *base = reinterpret_cast<const char *>(line);
    simdjson::ondemand::document document;
    if (p.iterate(simdjson::padded_string_view(base, length, length + simdjson::SIMDJSON_PADDING)).get(document) != simdjson::SUCCESS) return -1;
    simdjson::ondemand::object object;
    if (document.get_object().get(object) != simdjson::SUCCESS) return -1;
    int64_t count = 0;
    for (auto field : object) {
        simdjson::ondemand::raw_json_string key;
        if (field.key().get(key) != simdjson::SUCCESS) return -1;
        std::string_view value;
        if (raw(field.value(), value) != simdjson::SUCCESS) return -1;
        if (static_cast<size_t>(count) < capacity) {
            const char *k = reinterpret_cast<const char *>(key.raw());
            ranges[4 * count] = static_cast<size_t>(k - base);
            ranges[4 * count + 1] = 0;  // the key's end is the quote before ':' (simdjson gives its start only)
            ranges[4 * count + 2] = static_cast<size_t>(value.data() - base);
            ranges[4 * count + 3] = static_cast<size_t>(value.data() - base) + value.size();
        }
        count += 1;
    }
    return count;
}
