#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "rebirth/claims.h"
#include "rebirth/error.h"
#include "rebirth/html_report.h"
#include "rebirth/verify.h"

namespace rebirth::cli {

namespace {

namespace fs = std::filesystem;

// The files to check: each FILE given, and the .inp, .yaml and .yml files below each DIR
// (sorted by path).
// Throws InputError naming a path that is neither.
std::vector<std::string> collect(const std::vector<std::string>& paths) {
    std::vector<std::string> out;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (fs::is_directory(p, ec)) {
            std::vector<std::string> found;
            for (const auto& e : fs::recursive_directory_iterator(p, ec))
                if (e.is_regular_file() && (e.path().extension() == ".inp" || e.path().extension() == ".yaml" ||
                                            e.path().extension() == ".yml"))
                    found.push_back(e.path().string());
            std::sort(found.begin(), found.end());
            out.insert(out.end(), found.begin(), found.end());
        } else if (fs::is_regular_file(p, ec)) {
            out.push_back(p);
        } else {
            throw InputError(p, 0, p, "no such file or directory:");
        }
    }
    return out;
}

// One problem's result as a JSON object (checked_claim), with the seconds it took.
nlohmann::json check(const ClaimedProblem& c, const CookcheckArgs& args) {
    const auto start = std::chrono::steady_clock::now();
    nlohmann::json j = checked_claim(c, args.threads, args.max_seconds);
    j["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return j;
}

// The results a journal holds, by file (the last line of a file wins); a line that is no
// such JSON object is bad input naming the journal and line.
std::map<std::string, nlohmann::json> read_journal(const std::string& path) {
    std::map<std::string, nlohmann::json> out;
    std::ifstream in(path);
    if (!in) return out;  // a fresh run
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(line);
        } catch (const nlohmann::json::exception&) {
            // A line cut by a kill is the journal's last: its file is checked again.
            if (in.peek() == EOF) break;
            throw InputError(path, n, line.substr(0, 40), "not a line of a cookcheck journal:");
        }
        if (!j.is_object() || !j.contains("file") || !j.contains("verdict"))
            throw InputError(path, n, line.substr(0, 40), "not a line of a cookcheck journal:");
        out[j["file"].get<std::string>()] = j;
    }
    return out;
}

}  // namespace

// `rebirth cookcheck PATH...`: verify (verify.h) over every claimed problem of the files and
// directories given, one after the other, each on --threads; progress on stderr (a bar with
// the time left on a terminal, else a line per problem); per problem its verdict on stdout,
// then the counts per verdict and the time; --report FILE.json writes them as JSON;
// --journal FILE keeps each finished result, so a killed run started again with the same
// journal goes on where it stopped and prints the same. Exit as verify: 2 when a file is bad
// input, else 3 when a claim is cooked, dual or missing, else 4 when one is unverified, else 0.
int run_cookcheck(const CookcheckArgs& args) {
    if (!args.report.empty() && !args.report.ends_with(".json") && !args.report.ends_with(".html"))
        throw InputError("--report", 0, args.report, "a report is a .json or an .html file; not");
    // The problems: a Popeye file holds one, a YAML file one a document.
    std::vector<ClaimedProblem> problems;
    for (const std::string& file : collect(args.paths)) {
        std::vector<ClaimedProblem> claims = read_claims(file);
        for (ClaimedProblem& c : claims) problems.push_back(std::move(c));
    }
    std::map<std::string, nlohmann::json> done =
        args.journal.empty() ? std::map<std::string, nlohmann::json>{} : read_journal(args.journal);
    std::ofstream journal;
    if (!args.journal.empty()) {
        journal.open(args.journal, std::ios::app);
        if (!journal) throw InputError(args.journal, 0, args.journal, "cannot write the journal");
    }
    const bool tty = isatty(STDERR_FILENO);
    const auto start = std::chrono::steady_clock::now();
    nlohmann::json results = nlohmann::json::array();
    std::map<std::string, int> counts;
    for (size_t i = 0; i < problems.size(); ++i) {
        const std::string& name = problems[i].name;
        nlohmann::json r;
        if (const auto it = done.find(name); it != done.end()) {
            r = it->second;
        } else {
            r = check(problems[i], args);
            if (journal.is_open()) journal << r.dump() << "\n" << std::flush;
        }
        const std::string verdict = r["verdict"];
        ++counts[verdict];
        std::cout << claim_result_text(r);
        std::cout << std::flush;
        results.push_back(r);
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (tty) {
            const double left = elapsed / double(i + 1) * double(problems.size() - i - 1);
            const int width = 30, filled = int(double(width) * double(i + 1) / double(problems.size()));
            std::fprintf(stderr, "\r[%s%s] %zu/%zu, about %.0f s left ", std::string(size_t(filled), '#').c_str(),
                         std::string(size_t(width - filled), '.').c_str(), i + 1, problems.size(), left);
            if (i + 1 == problems.size()) std::fprintf(stderr, "\n");
        } else {
            std::fprintf(stderr, "cookcheck: %zu/%zu %s: %s\n", i + 1, problems.size(), name.c_str(), verdict.c_str());
        }
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "checked " << problems.size() << " problem(s):";
    for (const char* v : kClaimVerdicts) std::cout << " " << v << " " << counts[v];
    std::cout << "\n";
    if (!args.report.empty()) {
        nlohmann::json summary{{"problems", problems.size()}, {"seconds", seconds}};
        for (const char* v : kClaimVerdicts) summary[v] = counts[v];
        std::ofstream out(args.report);
        if (!out) throw InputError(args.report, 0, args.report, "cannot write the report");
        const nlohmann::json report{{"summary", summary}, {"problems", results}};
        if (args.report.ends_with(".html"))
            out << html_report(report);
        else
            out << report.dump(1) << "\n";
    }
    return counts["bad-input"]                                       ? kExitBadInput
           : counts["cooked"] || counts["dual"] || counts["missing"] ? kExitUnsound
           : counts["unverified"]                                    ? kExitUnverified
                                                                     : kExitOk;
}

}  // namespace rebirth::cli
