#include "rebirth/cluster/job.h"

#include <glob.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "rebirth/claims.h"
#include "rebirth/error.h"
#include "rebirth/popeye_input.h"

namespace rebirth::cluster {

using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Byte offsets of the members and elements of a JSON text nlohmann has accepted, by
// dotted key path ("limits.threads", "problems[1].files"): where an error should point.
class Offsets {
  public:
    explicit Offsets(std::string_view text) : text_(text) { value(""); }
    std::size_t at(const std::string& key) const {
        auto it = map_.find(key);
        return it == map_.end() ? 0 : it->second;
    }

  private:
    void skip_ws() {
        while (pos_ < text_.size() &&
               (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }
    std::string string() {
        std::string out;
        ++pos_;
        while (pos_ < text_.size() && text_[pos_] != '"') {
            if (text_[pos_] == '\\') ++pos_;
            out += text_[pos_++];
        }
        ++pos_;
        return out;
    }
    void value(const std::string& key) {
        skip_ws();
        if (pos_ >= text_.size()) return;
        char c = text_[pos_];
        if (c == '{') {
            ++pos_;
            skip_ws();
            while (pos_ < text_.size() && text_[pos_] != '}') {
                std::size_t at = pos_;
                std::string name = string();
                std::string sub = key.empty() ? name : key + "." + name;
                map_.emplace(sub, at);
                skip_ws();
                ++pos_;  // ':'
                value(sub);
                skip_ws();
                if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
                skip_ws();
            }
            ++pos_;
        } else if (c == '[') {
            ++pos_;
            skip_ws();
            for (int i = 0; pos_ < text_.size() && text_[pos_] != ']'; ++i) {
                std::string sub = key + "[" + std::to_string(i) + "]";
                skip_ws();
                map_.emplace(sub, pos_);
                value(sub);
                skip_ws();
                if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
                skip_ws();
            }
            ++pos_;
        } else if (c == '"') {
            string();
        } else {
            while (pos_ < text_.size() && std::string_view(",]} \t\r\n").find(text_[pos_]) == std::string_view::npos)
                ++pos_;
        }
    }
    std::string_view text_;
    std::size_t pos_ = 0;
    std::map<std::string, std::size_t> map_;
};

class Reader {
  public:
    Reader(std::string_view text, std::string file) : text_(text), file_(std::move(file)), offsets_(text) {}

    [[noreturn]] void fail(const std::string& key, const std::string& reason) const {
        throw InputError(file_, line_of_offset(text_, offsets_.at(key)), key, reason);
    }
    // Refuses keys of `obj` outside `allowed`.
    void only(const json& obj, const std::string& key, const std::set<std::string>& allowed) const {
        for (const auto& [name, v] : obj.items()) {
            if (!allowed.count(name)) {
                std::string list;
                for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
                fail(key.empty() ? name : key + "." + name, "unknown key (expected one of: " + list + ")");
            }
        }
    }
    int integer(const json& v, const std::string& key, int min, int max) const {
        if (!v.is_number_integer()) fail(key, "expected an integer");
        long long n = v.get<long long>();
        if (n < min || n > max)
            fail(key, "expected an integer from " + std::to_string(min) + " to " + std::to_string(max));
        return int(n);
    }
    double positive(const json& v, const std::string& key) const {
        if (!v.is_number() || v.get<double>() <= 0) fail(key, "expected a positive number");
        return v.get<double>();
    }
    std::string string(const json& v, const std::string& key) const {
        if (!v.is_string() || v.get<std::string>().empty()) fail(key, "expected a non-empty string");
        return v.get<std::string>();
    }
    Limits limits(const json& v, const std::string& key, Limits base) const {
        if (!v.is_object()) fail(key, "expected an object");
        only(v, key, {"threads", "item_seconds", "items_per_rank", "max_seconds"});
        if (v.contains("threads")) base.threads = integer(v["threads"], key + ".threads", 0, 4096);
        if (v.contains("item_seconds")) base.item_seconds = positive(v["item_seconds"], key + ".item_seconds");
        if (v.contains("items_per_rank"))
            base.items_per_rank = integer(v["items_per_rank"], key + ".items_per_rank", 1, 100000);
        if (v.contains("max_seconds")) {
            const json& m = v["max_seconds"];
            if (!m.is_number() || m.get<double>() < 0) fail(key + ".max_seconds", "expected a number >= 0");
            base.max_seconds = m.get<double>();
        }
        return base;
    }
    std::string kind(const json& v, const std::string& key) const {
        std::string k = string(v, key);
        if (k != "perft" && k != "solve" && k != "proofgame" && k != "retro" && k != "cookcheck" && k != "noop")
            fail(key, "unknown search kind '" + k + "' (implemented: perft, solve, proofgame, retro, cookcheck, noop)");
        return k;
    }

  private:
    std::string_view text_;
    std::string file_;
    Offsets offsets_;
};

bool proof_stipulation(const Stipulation& st) {
    return st.play == Stipulation::Play::ProofGame || st.play == Stipulation::Play::AToB;
}

// Why problem `p` (of `file`) is no proof game in every twin ("" when it is one).
std::string not_a_proof_game(const Problem& p, const std::string& file) {
    const auto where = [&](int line) { return file + ":" + std::to_string(line) + ": "; };
    if (!proof_stipulation(p.stipulation))
        return where(p.where.line) + "stipulation '" + p.stipulation.text + "' is no proof game (dia, a=>b)";
    for (const Twin& twin : p.twins)
        for (const TwinOp& op : twin.ops)
            if (op.kind == TwinOp::Kind::Stipulation && !proof_stipulation(op.stipulation))
                return where(twin.where.line) + "twin stipulation '" + op.stipulation.text +
                       "' is no proof game (dia, a=>b)";
    return "";
}

// Why problem `p` of `file` is no retro problem (its stipulation is neither lastmoves N nor
// a defensive retractor, or a twin's is of another kind), naming the line; "" when it is one.
std::string not_a_retro_problem(const Problem& p, const std::string& file) {
    const auto where = [&](int line) { return file + ":" + std::to_string(line) + ": "; };
    if (!p.stipulation.retro())
        return where(p.where.line) + "stipulation '" + p.stipulation.text +
               "' is no retro stipulation (lastmoves N, -n & #1)";
    for (const Twin& twin : p.twins)
        for (const TwinOp& op : twin.ops)
            if (op.kind == TwinOp::Kind::Stipulation && op.stipulation.play != p.stipulation.play)
                return where(twin.where.line) + "twin stipulation '" + op.stipulation.text +
                       "' is not of the problem's retro kind";
    return "";
}

std::string resolve(const std::string& base_dir, const std::string& p) {
    if (p.empty() || p[0] == '/' || base_dir.empty()) return p;
    return (fs::path(base_dir) / p).lexically_normal().string();
}

std::vector<std::string> expand_glob(const std::string& pattern) {
    glob_t g{};
    std::vector<std::string> out;
    if (::glob(pattern.c_str(), 0, nullptr, &g) == 0)
        for (std::size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
    ::globfree(&g);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

std::string read_file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, 0, path, "cannot read the file");
    std::ostringstream ss;
    ss << in.rdbuf();
    return std::move(ss).str();
}

int line_of_offset(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    return 1 + int(std::count(text.begin(), text.begin() + offset, '\n'));
}

Job parse_job(std::string_view text, const std::string& file_name, const std::string& base_dir) {
    json root;
    try {
        root = json::parse(text);
    } catch (const json::parse_error& e) {
        std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
        std::size_t end = std::min(text.size(), at + 20);
        std::string near(text.substr(std::min(at, text.size()), end - std::min(at, text.size())));
        near = near.substr(0, near.find('\n'));
        std::string reason = e.what();
        if (auto p = reason.find("syntax error"); p != std::string::npos) reason = reason.substr(p);
        throw InputError(file_name, line_of_offset(text, at), near, "not valid JSON: " + reason);
    } catch (const json::out_of_range& e) {
        // A number beyond a double's range ("1e400"): nlohmann quotes it but gives no offset.
        const std::string what = e.what();
        const std::size_t open = what.find('\'');
        const std::size_t close = what.rfind('\'');
        const std::string number = open < close ? what.substr(open + 1, close - open - 1) : std::string();
        const std::size_t at = number.empty() ? std::string_view::npos : text.find(number);
        throw InputError(file_name, at == std::string_view::npos ? 0 : line_of_offset(text, at), number,
                         "not valid JSON: number out of range");
    }
    Reader r(text, file_name);
    if (!root.is_object()) r.fail("", "a job file is a JSON object");
    r.only(root, "", {"kind", "depth", "items", "limits", "problems", "output_dir", "journal"});
    Job job;
    job.source = file_name;
    if (!root.contains("kind")) r.fail("", "missing key 'kind'");
    job.kind = r.kind(root["kind"], "kind");
    int depth = 0;
    if (root.contains("depth")) depth = r.integer(root["depth"], "depth", 1, 64);
    int items = 1000;
    if (root.contains("items")) items = r.integer(root["items"], "items", 1, 10000000);
    Limits limits;
    if (root.contains("limits")) limits = r.limits(root["limits"], "limits", limits);
    if (!root.contains("output_dir")) r.fail("", "missing key 'output_dir'");
    job.output_dir = resolve(base_dir, r.string(root["output_dir"], "output_dir"));
    job.journal = root.contains("journal") ? resolve(base_dir, r.string(root["journal"], "journal"))
                                           : (fs::path(job.output_dir) / "journal.jsonl").string();
    if (!root.contains("problems")) r.fail("", "missing key 'problems'");
    const json& problems = root["problems"];
    if (!problems.is_array() || problems.empty()) r.fail("problems", "expected a non-empty array of globs or objects");
    std::map<std::string, std::string> ids;
    for (std::size_t i = 0; i < problems.size(); ++i) {
        const std::string key = "problems[" + std::to_string(i) + "]";
        const json& entry = problems[i];
        std::string pattern;
        int only_index = 0;
        int entry_depth = depth;
        int entry_items = items;
        std::string entry_kind = job.kind;
        Limits entry_limits = limits;
        std::string files_key = key;
        if (entry.is_string()) {
            pattern = r.string(entry, key);
        } else if (entry.is_object()) {
            r.only(entry, key, {"files", "problem", "kind", "depth", "items", "limits"});
            files_key = key + ".files";
            if (!entry.contains("files")) r.fail(key, "missing key 'files'");
            pattern = r.string(entry["files"], files_key);
            if (entry.contains("problem")) only_index = r.integer(entry["problem"], key + ".problem", 1, 100000);
            if (entry.contains("kind")) entry_kind = r.kind(entry["kind"], key + ".kind");
            if (entry.contains("depth")) entry_depth = r.integer(entry["depth"], key + ".depth", 1, 64);
            if (entry.contains("items")) entry_items = r.integer(entry["items"], key + ".items", 1, 10000000);
            if (entry.contains("limits")) entry_limits = r.limits(entry["limits"], key + ".limits", entry_limits);
        } else {
            r.fail(key, "expected a glob string or an object with 'files'");
        }
        if (entry_kind == "perft" && entry_depth == 0) r.fail(key, "no depth: give 'depth' here or at the top level");
        std::vector<std::string> files = expand_glob(resolve(base_dir, pattern));
        if (files.empty()) r.fail(files_key, "'" + pattern + "' matches no file");
        for (const std::string& file : files) {
            std::string stem = fs::path(file).stem().string();
            int count = 1;
            std::string error;
            std::vector<Problem> parsed;
            if (entry_kind == "cookcheck") {
                // Claimed problems (claims.h): one a Popeye file, one a YAML document; one that
                // cannot be read is a bad-input verdict of its own, never the job's error.
                count = int(read_claims(file).size());
            } else {
                try {
                    parsed = parse_popeye(read_file_bytes(file), file);
                    count = int(parsed.size());
                } catch (const InputError& e) {
                    error = e.what();
                }
            }
            if (only_index > count && error.empty())
                r.fail(key + ".problem", file + " holds " + std::to_string(count) + " problem(s)");
            for (int k = 1; k <= count; ++k) {
                if (only_index && k != only_index) continue;
                // A proofgame entry holds proof games only (every twin).
                if (entry_kind == "proofgame" && error.empty()) {
                    const std::string why = not_a_proof_game(parsed[std::size_t(k - 1)], file);
                    if (!why.empty()) r.fail(files_key, why + " (kind proofgame)");
                }
                // A retro entry holds retro problems only (every twin).
                if (entry_kind == "retro" && error.empty()) {
                    const std::string why = not_a_retro_problem(parsed[std::size_t(k - 1)], file);
                    if (!why.empty()) r.fail(files_key, why + " (kind retro)");
                }
                JobProblem p;
                p.id = count > 1 ? stem + "-" + std::to_string(k) : stem;
                p.file = file;
                p.index = k;
                p.kind = entry_kind;
                p.depth = entry_kind == "perft" ? entry_depth : 0;
                p.items = entry_kind == "noop" ? entry_items : 0;
                p.limits = entry_limits;
                p.error = error;
                auto [it, fresh] = ids.emplace(p.id, file);
                if (!fresh)
                    r.fail(files_key, "problem id '" + p.id + "' of " + file + " repeats that of " + it->second);
                job.problems.push_back(std::move(p));
            }
        }
    }
    return job;
}

Job load_job(const std::string& path) {
    std::string text = read_file_bytes(path);
    return parse_job(text, path, fs::path(path).parent_path().string());
}

}  // namespace rebirth::cluster
