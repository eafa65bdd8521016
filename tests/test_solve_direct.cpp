// Battle play (direct, self, reflex) against Popeye 4.104: every reference problem of group
// direct, self or other (reflex) is parsed, solved with solve_problem after format_header,
// and compared with Popeye's output as a multiset of lines. The reference files are read in
// place.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../src/solve_internal.h"
#include "rebirth/movegen.h"
#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/solve.h"

using namespace rebirth;

namespace {

const std::string kDir = REBIRTH_SHARED_DIR "/reference/problems/";

// Names of the reference problems of the battle-play groups.
std::vector<std::string> battle_problems() {
    std::vector<std::string> names;
    std::ifstream in(kDir + "index.jsonl");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        const std::string group = j.at("group").get<std::string>();
        if (group == "direct" || group == "self" || group == "other") names.push_back(j.at("name").get<std::string>());
    }
    return names;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> sorted_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    std::sort(lines.begin(), lines.end());
    return lines;
}

// The lines of `a` missing from `b` (multisets), prefixed with `tag`.
std::string difference(const std::vector<std::string>& a, const std::vector<std::string>& b, const char* tag) {
    std::vector<std::string> d;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(d));
    std::string s;
    for (const std::string& l : d) s += std::string(tag) + l + "\n";
    return s;
}

// Rebirth's whole output for the problems of one reference input.
std::string solve_file(const std::string& path, int threads) {
    std::string out;
    for (const Problem& p : parse_popeye_file(path)) out += format_header(p) + solve_problem(p, threads);
    return out;
}

}  // namespace

TEST(SolveDirect, ReferenceProblemsMatchPopeye) {
    const std::vector<std::string> names = battle_problems();
    ASSERT_FALSE(names.empty());
    int matched = 0;
    std::string report;
    for (const std::string& name : names) {
        std::string ours;
        try {
            ours = solve_file(kDir + name + ".inp", 0);
        } catch (const std::exception& e) {
            ours = std::string("exception: ") + e.what();
        }
        const auto want = sorted_lines(read_text(kDir + name + ".out"));
        const auto got = sorted_lines(ours);
        if (want == got) {
            ++matched;
        } else {
            report += "--- " + name + "\n" + difference(want, got, "  popeye only: ") +
                      difference(got, want, "  rebirth only: ");
        }
    }
    std::cout << "battle play: " << matched << " of " << names.size() << " reference problems match\n" << report;
    EXPECT_EQ(matched, static_cast<int>(names.size()));
}

// The output does not depend on the number of threads.
TEST(SolveDirect, SameOutputForAnyThreadCount) {
    for (const std::string& name : battle_problems()) {
        const std::string path = kDir + name + ".inp";
        std::string one, many;
        try {
            one = solve_file(path, 1);
            many = solve_file(path, 4);
        } catch (const std::exception&) {
            continue;
        }
        EXPECT_EQ(one, many) << name;
    }
}
