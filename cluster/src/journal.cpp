#include "rebirth/cluster/journal.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "rebirth/error.h"

namespace rebirth::cluster {

using nlohmann::json;

namespace {

std::string first_token(const std::string& path) { return path.substr(0, path.find(' ')); }

// Bytes of a lower-case hex string; throws std::runtime_error on a malformed one.
std::string from_hex(const std::string& hex) {
    auto nibble = [](char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        throw std::runtime_error("bad hex text");
    };
    if (hex.size() % 2) throw std::runtime_error("bad hex text");
    std::string out;
    for (std::size_t i = 0; i < hex.size(); i += 2) out += char(nibble(hex[i]) * 16 + nibble(hex[i + 1]));
    return out;
}

// Lower-case hex of the bytes of `text`.
std::string to_hex(const std::string& text) {
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char c : text) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

// A fragment record as JSON: the retro data only when there is some.
json fragment_json(const FragmentRecord& record) {
    json j{{"timed_out", record.timed_out},
           {"nodes", record.nodes},
           {"seconds", record.seconds},
           {"threads", record.threads}};
    if (!record.lines.empty()) j["lines"] = record.lines;
    if (!record.trees.empty()) j["trees"] = record.trees;
    if (!record.sequences.empty()) j["sequences"] = record.sequences;
    if (record.key_choices != 0 || record.unresolved_choices != 0)
        j["choices"] = std::vector<int>{record.key_choices, record.unresolved_choices};
    if (!record.keys.empty()) j["keys"] = record.keys;
    if (!record.unresolved.empty()) j["unresolved"] = record.unresolved;
    return j;
}

FragmentRecord fragment_from_json(const json& j) {
    FragmentRecord rec;
    if (j.contains("lines")) rec.lines = j.at("lines").get<std::vector<std::vector<std::string>>>();
    if (j.contains("trees")) rec.trees = j.at("trees").get<std::vector<std::string>>();
    if (j.contains("sequences")) rec.sequences = j.at("sequences").get<std::vector<std::string>>();
    if (j.contains("choices")) {
        const auto choices = j.at("choices").get<std::vector<int>>();
        if (choices.size() != 2 || choices[0] < 0 || choices[1] < 0)
            throw std::runtime_error("a fragment's choices are not two counts");
        rec.key_choices = choices[0];
        rec.unresolved_choices = choices[1];
    }
    if (j.contains("keys")) rec.keys = j.at("keys").get<std::vector<std::string>>();
    if (j.contains("unresolved")) rec.unresolved = j.at("unresolved").get<std::vector<std::string>>();
    rec.timed_out = j.at("timed_out").get<bool>();
    rec.nodes = j.at("nodes").get<std::uint64_t>();
    rec.seconds = j.at("seconds").get<double>();
    rec.threads = j.at("threads").get<int>();
    return rec;
}

}  // namespace

void ProblemProgress::plan(const std::vector<std::string>& items) {
    if (planned_) throw std::logic_error("problem planned twice");
    planned_ = true;
    for (const std::string& p : items) {
        if (p.empty() || where_.count(p)) throw std::logic_error("bad or repeated item '" + p + "' in plan");
        where_[p] = pending_.insert(pending_.end(), p);
    }
}

void ProblemProgress::take(const std::string& path) {
    auto it = where_.find(path);
    if (it == where_.end()) throw std::logic_error("item '" + path + "' is not pending");
    pending_.erase(it->second);
    where_.erase(it);
}

void ProblemProgress::done(const std::string& path, std::uint64_t nodes) {
    take(path);
    by_first_[first_token(path)] += nodes;
}

void ProblemProgress::split(const std::string& path, const std::vector<std::pair<std::string, std::uint64_t>>& done,
                            const std::vector<std::string>& pending) {
    auto it = where_.find(path);
    if (it == where_.end()) throw std::logic_error("item '" + path + "' is not pending");
    auto below = [&](const std::string& child) {
        return child.size() > path.size() + 1 && child.compare(0, path.size(), path) == 0 &&
               child[path.size()] == ' ' && child.find(' ', path.size() + 1) == std::string::npos;
    };
    for (const auto& [child, n] : done)
        if (!below(child)) throw std::logic_error("'" + child + "' is not a child of '" + path + "'");
    for (const std::string& child : pending)
        if (!below(child) || where_.count(child))
            throw std::logic_error("'" + child + "' is not a new child of '" + path + "'");
    auto next = std::next(it->second);
    pending_.erase(it->second);
    where_.erase(it);
    for (const auto& [child, n] : done) by_first_[first_token(child)] += n;
    for (const std::string& child : pending) where_[child] = pending_.insert(next, child);
}

void ProblemProgress::split_in_order(const std::string& path, const std::vector<std::string>& children,
                                     const std::map<std::string, std::uint64_t>& searched) {
    std::vector<std::pair<std::string, std::uint64_t>> done;
    std::vector<std::string> pending;
    for (const std::string& c : children) {
        auto it = searched.find(c);
        if (it == searched.end())
            pending.push_back(c);
        else
            done.push_back({c, it->second});
    }
    if (done.size() != searched.size()) throw std::logic_error("a searched child is not among the children");
    split(path, done, pending);
}

std::uint64_t ProblemProgress::first_move_total(const std::string& token) const {
    auto it = by_first_.find(token);
    return it == by_first_.end() ? 0 : it->second;
}

std::uint64_t ProblemProgress::total() const {
    std::uint64_t sum = 0;
    for (const auto& [token, n] : by_first_) sum += n;
    return sum;
}

void apply_journal_line(JournalState& state, const std::string& line, const std::string& file, int line_no) {
    try {
        json j = json::parse(line);
        const std::string type = j.at("t").get<std::string>();
        if (type == "start") {
            std::string fp = j.at("fingerprint").get<std::string>();
            const int version = j.at("version").get<int>();
            if (version != kJournalVersion) {
                std::string why = version == 1   ? " (older journals name repeated moves alike)"
                                  : version == 2 ? " (older journals keep solve problems whole)"
                                  : version <= 5 ? " (older journals keep the solutions of solve items as text)"
                                  : version == 6 ? " (older journals keep the answers of retro items as text)"
                                                 : "";
                throw InputError(file, line_no, "version " + std::to_string(version),
                                 "journal of format version " + std::to_string(version) +
                                     ", this rebirth-cluster reads version " + std::to_string(kJournalVersion) + why +
                                     "; finish the run with the build that wrote it or remove the journal");
            }
            if (!state.fingerprint.empty() && fp != state.fingerprint)
                throw std::runtime_error("journal mixes runs of different jobs");
            state.fingerprint = fp;
            ++state.runs;
        } else if (type == "plan") {
            const std::string problem = j.at("problem").get<std::string>();
            const auto items = j.at("items").get<std::vector<std::string>>();
            state.problems[problem].plan(items);
            state.plans[problem] = items;
        } else if (type == "done") {
            state.problems.at(j.at("problem").get<std::string>())
                .done(j.at("path").get<std::string>(), j.at("nodes").get<std::uint64_t>());
        } else if (type == "split") {
            std::vector<std::pair<std::string, std::uint64_t>> done;
            for (const json& d : j.at("done"))
                done.push_back({d.at(0).get<std::string>(), d.at(1).get<std::uint64_t>()});
            state.problems.at(j.at("problem").get<std::string>())
                .split(j.at("path").get<std::string>(), done, j.at("pending").get<std::vector<std::string>>());
        } else if (type == "solved") {
            const std::string problem = j.at("problem").get<std::string>();
            SolveRecord rec;
            rec.text = j.contains("text_hex") ? from_hex(j.at("text_hex").get<std::string>())
                                              : j.at("text").get<std::string>();
            rec.status = j.at("status").get<std::string>();
            rec.solutions = j.at("solutions").get<int>();
            rec.nodes = j.at("nodes").get<std::uint64_t>();
            rec.seconds = j.at("seconds").get<double>();
            rec.threads = j.at("threads").get<int>();
            const std::string path = j.at("path").get<std::string>();
            ProblemProgress& progress = state.problems.at(problem);
            // An empty path: the output assembled from the items, once, after the problem was
            // planned. Items may still be pending here: with MaxSolutions the master leaves a
            // play's items after its first lines unsearched and journals nothing for them
            // (Master::settle_proof), so the assembled output also closes those.
            if (path.empty()) {
                if (!progress.planned() || state.solved.count(problem))
                    throw std::runtime_error("assembled output before the problem's plan or twice");
                for (const std::string& left : progress.pending()) progress.done(left, 0);
            } else {
                progress.done(path, rec.nodes);
            }
            state.solved[problem] = std::move(rec);
        } else if (type == "fragment") {
            const std::string problem = j.at("problem").get<std::string>();
            const std::string path = j.at("path").get<std::string>();
            FragmentRecord rec = fragment_from_json(j);
            state.problems.at(problem).done(path, rec.nodes);
            state.fragments[problem][path] = std::move(rec);
        } else if (type == "proof") {
            const std::string problem = j.at("problem").get<std::string>();
            const std::string path = j.at("path").get<std::string>();
            ProofRecord rec;
            rec.lines = j.at("lines").get<std::vector<std::vector<std::string>>>();
            rec.timed_out = j.at("timed_out").get<bool>();
            rec.nodes = j.at("nodes").get<std::uint64_t>();
            rec.seconds = j.at("seconds").get<double>();
            rec.threads = j.at("threads").get<int>();
            state.problems.at(problem).done(path, rec.nodes);
            state.proofs[problem][path] = std::move(rec);
        } else if (type == "reply_split") {
            const std::string problem = j.at("problem").get<std::string>();
            const std::string path = j.at("path").get<std::string>();
            const auto children = j.at("children").get<std::vector<std::string>>();
            std::map<std::string, FragmentRecord> done;
            std::map<std::string, std::uint64_t> nodes;
            for (const auto& [key, f] : j.at("done").items()) {
                done[key] = fragment_from_json(f);
                nodes[key] = done[key].nodes;
            }
            state.problems.at(problem).split_in_order(path, children, nodes);
            for (auto& [key, rec] : done) state.fragments[problem][key] = std::move(rec);
            state.replies[problem][path] = children;
        } else if (type == "finished") {
            const ProblemProgress& p = state.problems.at(j.at("problem").get<std::string>());
            if (!p.finished() || p.total() != j.at("nodes").get<std::uint64_t>())
                throw std::runtime_error("'finished' line does not match the items before it");
        } else {
            throw std::runtime_error("unknown line type '" + type + "'");
        }
        if (state.fingerprint.empty()) throw std::runtime_error("journal does not begin with a start line");
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw InputError(file, line_no, line.substr(0, 60), std::string("bad journal line: ") + e.what());
    }
}

JournalState read_journal(const std::string& path) {
    JournalState state;
    std::ifstream in(path, std::ios::binary);
    if (!in) return state;
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string text = std::move(ss).str();
    std::size_t pos = 0;
    int line_no = 0;
    while (pos < text.size()) {
        std::size_t nl = text.find('\n', pos);
        ++line_no;
        if (nl == std::string::npos) break;  // cut short by a kill: dropped, searched again
        apply_journal_line(state, text.substr(pos, nl - pos), path, line_no);
        pos = nl + 1;
        state.valid_bytes = pos;
    }
    return state;
}

JournalWriter::JournalWriter(const std::string& path, std::size_t keep_bytes, double sync_interval)
    : path_(path), sync_interval_(sync_interval), last_sync_(std::chrono::steady_clock::now()) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && std::filesystem::file_size(path, ec) != keep_bytes)
        std::filesystem::resize_file(path, keep_bytes, ec);
    if (ec) throw InputError(path, 0, path, "cannot trim the journal: " + ec.message());
    file_ = std::fopen(path.c_str(), "ab");
    if (!file_) throw InputError(path, 0, path, "cannot open the journal for appending");
}

JournalWriter::~JournalWriter() {
    if (!file_) return;
    if (dirty_) ::fdatasync(::fileno(file_));
    std::fclose(file_);
}

void JournalWriter::append(const std::string& json_line) {
    std::string line = json_line + "\n";
    if (std::fwrite(line.data(), 1, line.size(), file_) != line.size() || std::fflush(file_) != 0)
        throw std::runtime_error("cannot write the journal " + path_);
    dirty_ = true;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - last_sync_).count() >= sync_interval_) sync();
}

void JournalWriter::sync() {
    if (!dirty_) return;
    if (::fdatasync(::fileno(file_)) != 0) throw std::runtime_error("cannot write the journal " + path_);
    dirty_ = false;
    ++syncs_;
    last_sync_ = std::chrono::steady_clock::now();
}

std::optional<std::chrono::steady_clock::time_point> JournalWriter::sync_deadline() const {
    if (!dirty_) return std::nullopt;
    return last_sync_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(sync_interval_));
}

std::string journal_start(const std::string& fingerprint, long pid, const std::string& host, int ranks) {
    return json{
        {"t", "start"},  {"version", kJournalVersion}, {"fingerprint", fingerprint}, {"pid", pid}, {"host", host},
        {"ranks", ranks}}
        .dump();
}

std::string journal_plan(const std::string& problem, const std::vector<std::string>& items) {
    return json{{"t", "plan"}, {"problem", problem}, {"items", items}}.dump();
}

std::string journal_done(const std::string& problem, const std::string& path, std::uint64_t nodes) {
    return json{{"t", "done"}, {"problem", problem}, {"path", path}, {"nodes", nodes}}.dump();
}

std::string journal_split(const std::string& problem, const std::string& path,
                          const std::vector<std::pair<std::string, std::uint64_t>>& done,
                          const std::vector<std::string>& pending) {
    json d = json::array();
    for (const auto& [p, n] : done) d.push_back(json::array({p, n}));
    return json{{"t", "split"}, {"problem", problem}, {"path", path}, {"done", d}, {"pending", pending}}.dump();
}

std::string journal_finished(const std::string& problem, std::uint64_t nodes) {
    return json{{"t", "finished"}, {"problem", problem}, {"nodes", nodes}}.dump();
}

// The line of a solved item; a text that is not valid UTF-8 (a Latin-1 file's names) is
// kept byte for byte as "text_hex" instead of "text".
std::string journal_solved(const std::string& problem, const std::string& path, const SolveRecord& record) {
    json j{{"t", "solved"},
           {"problem", problem},
           {"path", path},
           {"status", record.status},
           {"solutions", record.solutions},
           {"nodes", record.nodes},
           {"seconds", record.seconds},
           {"threads", record.threads},
           {"text", record.text}};
    try {
        return j.dump();
    } catch (const json::type_error&) {
        j.erase("text");
        j["text_hex"] = to_hex(record.text);
        return j.dump();
    }
}

std::string journal_fragment(const std::string& problem, const std::string& path, const FragmentRecord& record) {
    json j = fragment_json(record);
    j["t"] = "fragment";
    j["problem"] = problem;
    j["path"] = path;
    return j.dump();
}

std::string journal_proof(const std::string& problem, const std::string& path, const ProofRecord& record) {
    return json{{"t", "proof"},
                {"problem", problem},
                {"path", path},
                {"timed_out", record.timed_out},
                {"nodes", record.nodes},
                {"seconds", record.seconds},
                {"threads", record.threads},
                {"lines", record.lines}}
        .dump();
}

std::string journal_reply_split(const std::string& problem, const std::string& path,
                                const std::vector<std::string>& children,
                                const std::map<std::string, FragmentRecord>& done) {
    json d = json::object();
    for (const auto& [key, rec] : done) d[key] = fragment_json(rec);
    return json{{"t", "reply_split"}, {"problem", problem}, {"path", path}, {"children", children}, {"done", d}}.dump();
}

}  // namespace rebirth::cluster
