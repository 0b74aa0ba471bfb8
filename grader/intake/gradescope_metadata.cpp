#include "intake/gradescope_metadata.h"

#include "intake/timestamp.h"
#include "util/text.h"

namespace hpclab {

namespace {

std::size_t indent_of(const std::string& line) { return line.find_first_not_of(' '); }

// A scalar as YAML writes it: bare, 'single' ('' for ') or "double" quoted.
std::string scalar(std::string v)
{
    v = trimmed(v);
    if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front()) {
        const char q = v.front();
        v = v.substr(1, v.size() - 2);
        if (q == '\'')
            for (std::size_t p = 0; (p = v.find("''", p)) != std::string::npos; ++p) v.erase(p, 1);
    }
    return v;
}

// ":key: value" -> {"key", "value"}; nothing for another shape.
std::optional<std::pair<std::string, std::string>> symbol_entry(const std::string& text)
{
    if (text.size() < 3 || text[0] != ':') return std::nullopt;
    const auto colon = text.find(':', 1);
    if (colon == std::string::npos) return std::nullopt;
    return std::make_pair(text.substr(1, colon - 1), scalar(text.substr(colon + 1)));
}

void set_field(GradescopeSubmitter& s, const std::string& key, const std::string& value)
{
    if (key == "name") s.name = value;
    else if (key == "sid") s.sid = value;
    else if (key == "email") s.email = value;
}

}  // namespace

std::map<std::string, GradescopeSubmission> parse_gradescope_metadata(const std::string& yaml)
{
    std::map<std::string, GradescopeSubmission> out;
    GradescopeSubmission* current = nullptr;
    bool in_submitters = false;
    std::size_t key_indent = 0;  // the indent of a submission's own keys
    for (std::string line : split(yaml, '\n')) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::size_t indent = indent_of(line);
        if (indent == std::string::npos || line[indent] == '#') continue;
        const std::string text = line.substr(indent);
        if (indent == 0) {  // a submission: "submission_123:"
            current = text.back() == ':' ? &out[text.substr(0, text.size() - 1)] : nullptr;
            in_submitters = false;
            key_indent = 0;
            continue;
        }
        if (!current) continue;
        if (key_indent == 0) key_indent = indent;
        if (indent == key_indent && text[0] == ':') {
            const auto entry = symbol_entry(text);
            in_submitters = entry && entry->first == "submitters";
            if (entry && entry->first == "created_at") {
                current->created_at_text = entry->second;
                current->created_at = parse_timestamp(entry->second);
            }
        } else if (in_submitters && text.rfind("- ", 0) == 0) {
            current->submitters.emplace_back();
            if (const auto entry = symbol_entry(trimmed(text.substr(2)))) set_field(current->submitters.back(), entry->first, entry->second);
        } else if (in_submitters && indent > key_indent && !current->submitters.empty()) {
            if (const auto entry = symbol_entry(text)) set_field(current->submitters.back(), entry->first, entry->second);
        } else if (indent <= key_indent) {
            in_submitters = false;
        }
    }
    return out;
}

}  // namespace hpclab
