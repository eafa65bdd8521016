#include "rebirth/claims.h"

#include <fstream>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "io/popeye_parse.h"
#include "rebirth/popeye_input.h"

namespace rebirth {

ClaimedProblem read_claimed_problem(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, 0, path, "cannot read the file");
    std::ostringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::vector<Problem> problems = parse_popeye(text, path);
    if (problems.size() != 1)
        throw InputError(path, problems.size() > 1 ? problems[1].where.line : 0, std::to_string(problems.size()),
                         "one problem per file (its claimed solution follows EndProblem); problems found:");
    ClaimedProblem out;
    out.name = path;
    out.problem = std::move(problems.front());
    // The claimed text: what follows the last line whose first word is the end keyword.
    const auto words = popeye::command_words(out.problem.language);
    std::istringstream lines(text);
    int line_no = 0, end_line = 0;
    for (std::string line; std::getline(lines, line);) {
        ++line_no;
        std::istringstream first(line);
        std::string w;
        if (first >> w) {
            const popeye::Match m = popeye::match_keyword(w, words);
            if (m.found() && m.index == int(popeye::Command::End)) end_line = line_no;
        }
    }
    std::istringstream again(text);
    line_no = 0;
    std::string rest;
    for (std::string line; std::getline(again, line);)
        if (++line_no > end_line) rest += line + "\n";
    out.claimed = rest;
    out.claimed_line = end_line + 1;
    return out;
}

namespace {

// A YAML scalar or sequence of scalars as the words of one line.
std::string words_of(const YAML::Node& n) {
    if (n.IsScalar()) return n.as<std::string>();
    std::string out;
    if (n.IsSequence())
        for (const YAML::Node& x : n) out += (out.empty() ? "" : " ") + x.as<std::string>();
    return out;
}

// One YAML document as Popeye input: its lines, and the YAML line each came from.
struct PopeyeText {
    std::string text;
    std::vector<int> yaml_line{0};  // [generated line] = YAML line (1-based), 0 for none
    void add(const std::string& line, const YAML::Node& from) {
        text += line + "\n";
        yaml_line.push_back(from ? int(from.Mark().line) + 1 : 0);
    }
};

// Whether `word` reads as a Popeye condition (else it is taken as an option).
bool is_condition(const std::string& word) {
    try {
        parse_condition_words(word, "<yaml>");
        return true;
    } catch (const InputError&) {
        return false;
    }
}

ClaimedProblem yaml_problem(const YAML::Node& doc, const std::string& path, int doc_line) {
    if (!doc.IsMap()) throw InputError(path, doc_line, "document", "a YAML problem is a map of fields; not a");
    PopeyeText t;
    t.add("BeginProblem", doc);
    if (const YAML::Node a = doc["authors"]; a && a.IsSequence())
        for (const YAML::Node& x : a) t.add("Author " + x.as<std::string>(), x);
    if (const YAML::Node src = doc["source"]; src && src.IsMap() && src["name"])
        t.add("Origin " + src["name"].as<std::string>(), src["name"]);
    const YAML::Node alg = doc["algebraic"];
    if (!alg || !alg.IsMap()) throw InputError(path, doc_line, "algebraic", "a YAML problem needs the field");
    std::string pieces = "Pieces";
    for (const char* side : {"white", "black", "neutral"})
        if (const YAML::Node units = alg[side]; units && units.size() > 0) {
            pieces += std::string(" ") +
                      (side[0] == 'w'   ? "White "
                       : side[0] == 'b' ? "Black "
                                        : "Neutral ") +
                      words_of(units);
        }
    t.add(pieces, alg);
    const YAML::Node stip = doc["stipulation"];
    if (!stip || !stip.IsScalar()) throw InputError(path, doc_line, "stipulation", "a YAML problem needs the field");
    std::string stipulation = stip.as<std::string>();
    if (stipulation.size() > 2 && (stipulation.rfind("PG", 0) == 0 || stipulation.rfind("pg", 0) == 0)) {
        std::string n = stipulation.substr(2);
        n.erase(0, n.find_first_not_of(' '));
        stipulation = "dia" + n;
    }
    t.add("Stipulation " + stipulation, stip);
    if (const YAML::Node opts = doc["options"]; opts && opts.IsSequence())
        for (const YAML::Node& o : opts) {
            const std::string w = o.as<std::string>();
            t.add((is_condition(w) ? "Condition " : "Option ") + w, o);
        }
    if (const YAML::Node tw = doc["twins"]; tw && tw.IsMap())
        for (const auto& kv : tw) t.add("Twin " + kv.second.as<std::string>(), kv.second);
    t.add("EndProblem", doc);
    ClaimedProblem out;
    try {
        std::vector<Problem> ps = parse_popeye(t.text, path);
        out.problem = std::move(ps.front());
    } catch (const InputError& e) {
        const int line = e.line() > 0 && e.line() < int(t.yaml_line.size()) ? t.yaml_line[size_t(e.line())] : doc_line;
        throw InputError(path, line ? line : doc_line, e.word(), e.reason());
    }
    out.problem.where = {path, doc_line};
    out.name = path + ":" + std::to_string(doc_line);
    if (const YAML::Node sol = doc["solution"]; sol && sol.IsScalar()) {
        out.claimed = sol.as<std::string>();
        // A block scalar ("solution: |") starts on the line after its key.
        out.claimed_line = int(sol.Mark().line) + (sol.Tag() == "!" ? 2 : 1);
    }
    return out;
}

// The documents of a YAML file, each read or with its error (a file that cannot be read or
// parsed: one entry with the error).
std::vector<ClaimedProblem> yaml_claims(const std::string& path) {
    auto failed = [](const InputError& e, const std::string& name) {
        ClaimedProblem c;
        c.name = name;
        c.error = e;
        return c;
    };
    std::vector<YAML::Node> docs;
    try {
        docs = YAML::LoadAllFromFile(path);
    } catch (const YAML::BadFile&) {
        return {failed(InputError(path, 0, path, "cannot read the file"), path)};
    } catch (const YAML::Exception& e) {
        return {failed(InputError(path, e.mark.line + 1, e.msg, "YAML error:"), path)};
    }
    std::vector<ClaimedProblem> out;
    for (const YAML::Node& doc : docs) {
        if (doc.IsNull()) continue;
        const int line = int(doc.Mark().line) + 1;
        const std::string name = path + ":" + std::to_string(line);
        try {
            out.push_back(yaml_problem(doc, path, line));
        } catch (const InputError& e) {
            out.push_back(failed(e, name));
        } catch (const YAML::Exception& e) {
            out.push_back(
                failed(InputError(path, e.mark.line >= 0 ? e.mark.line + 1 : line, e.msg, "YAML error:"), name));
        }
    }
    return out;
}

}  // namespace

std::vector<ClaimedProblem> read_claimed_yaml(const std::string& path) {
    std::vector<ClaimedProblem> out = yaml_claims(path);
    for (const ClaimedProblem& c : out)
        if (c.error) throw *c.error;
    return out;
}

std::vector<ClaimedProblem> read_claims(const std::string& path) {
    if (path.ends_with(".yaml") || path.ends_with(".yml")) return yaml_claims(path);
    try {
        return {read_claimed_problem(path)};
    } catch (const InputError& e) {
        ClaimedProblem c;
        c.name = path;
        c.error = e;
        return {c};
    }
}

}  // namespace rebirth
