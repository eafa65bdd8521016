// Help and series play (src/solve_help.cpp, front end src/solve.cpp) against Popeye 4.104's
// output for every reference problem of the groups help and series (index.jsonl).
//
// For each problem: format_header + solve_problem of every problem of NAME.inp is compared
// with NAME.out. Exact when Popeye's order is reproduced; otherwise as a multiset of lines
// (the order of solutions follows Popeye's move generation order). Problems flagged
// `partial` (MaxSolutions / StopOnShortSolutions) depend on that order for which lines they
// hold: they must print the same number of solution lines and the same other lines.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/solve.h"

namespace rebirth {
namespace {

namespace fs = std::filesystem;

const fs::path kProblems = fs::path(REBIRTH_SHARED_DIR) / "reference" / "problems";

std::string read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// A solution line starts with a move number ("  1.", " 10.").
bool is_solution_line(const std::string& line) {
    size_t i = line.find_first_not_of(' ');
    return i != std::string::npos && i < line.size() && std::isdigit(static_cast<unsigned char>(line[i])) &&
           line.find('.') != std::string::npos;
}

struct Case {
    std::string name;
    bool partial = false;
};

std::vector<Case> help_and_series_cases() {
    std::vector<Case> cases;
    std::ifstream in(kProblems / "index.jsonl");
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        const std::string group = j.at("group");
        if (group == "help" || group == "series") cases.push_back({j.at("name"), j.value("partial", false)});
    }
    return cases;
}

std::string solve_file(const fs::path& inp) {
    std::string out;
    for (const Problem& p : parse_popeye_file(inp.string())) out += format_header(p) + solve_problem(p, 1);
    return out;
}

TEST(SolveHelp, ReferenceProblems) {
    const std::vector<Case> cases = help_and_series_cases();
    ASSERT_FALSE(cases.empty()) << "no help/series problems in " << kProblems / "index.jsonl";
    int exact = 0, as_multiset = 0;
    std::vector<std::string> failed;
    for (const Case& c : cases) {
        const std::string expected = read_text(kProblems / (c.name + ".out"));
        std::string got;
        try {
            got = solve_file(kProblems / (c.name + ".inp"));
        } catch (const std::exception& e) {
            ADD_FAILURE() << c.name << ": " << e.what();
            failed.push_back(c.name);
            continue;
        }
        if (got == expected) {
            ++exact;
            continue;
        }
        std::vector<std::string> a = split_lines(got), b = split_lines(expected);
        bool ok;
        if (c.partial) {
            std::vector<std::string> a_rest, b_rest;
            for (const auto& l : a)
                if (!is_solution_line(l)) a_rest.push_back(l);
            for (const auto& l : b)
                if (!is_solution_line(l)) b_rest.push_back(l);
            ok = std::count_if(a.begin(), a.end(), is_solution_line) ==
                     std::count_if(b.begin(), b.end(), is_solution_line) &&
                 a_rest == b_rest;
        } else {
            std::sort(a.begin(), a.end());
            std::sort(b.begin(), b.end());
            ok = a == b;
        }
        if (ok) {
            ++as_multiset;
        } else {
            failed.push_back(c.name);
            ADD_FAILURE() << c.name << ": output differs\n--- expected\n" << expected << "--- got\n" << got;
        }
    }
    std::printf("help/series reference problems: %zu, exact %d, same lines in another order %d, differing %zu\n",
                cases.size(), exact, as_multiset, failed.size());
}

}  // namespace
}  // namespace rebirth
