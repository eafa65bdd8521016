// Battle play (direct, self, reflex) against Popeye 4.104: every reference problem of group
// direct, self or other (reflex) is parsed, solved with solve_problem after format_header,
// and compared with Popeye's output byte for byte (Popeye's output is deterministic and
// rebirth reproduces its order). The reference files are read in place.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../src/solve/solve_internal.h"
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
        const std::string popeye = read_text(kDir + name + ".out");
        if (ours == popeye) {
            ++matched;
        } else {
            // Byte for byte; the line difference only helps reading the failure.
            const auto want = sorted_lines(popeye);
            const auto got = sorted_lines(ours);
            report += "--- " + name + (want == got ? " (same lines, other order)\n" : "\n") +
                      difference(want, got, "  popeye only: ") + difference(got, want, "  rebirth only: ");
        }
    }
    std::cout << "battle play: " << matched << " of " << names.size() << " reference problems match byte for byte\n"
              << report;
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

namespace {

// Popeye's text for the only problem of input `text` (solution lines and closing line).
std::string solve_inline(const std::string& text, int threads) {
    const std::vector<Problem> problems = parse_popeye(text, "inline.inp");
    EXPECT_EQ(problems.size(), 1u);
    return solve_problem(problems.at(0), threads);
}

// The key lines ("   1.xxx !") of a solution text, in order.
std::vector<std::string> key_lines(const std::string& text) {
    std::vector<std::string> keys;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("   1.", 0) == 0 && line.find(" !") != std::string::npos) keys.push_back(line);
    return keys;
}

// White Kh1 Ra3 Pg2 Ph2, Black Kh8 Re5 Pe6 Pg7 Ph7: both kings are shut in by their pawns.
// White mates with Ra3-a8 (Black cannot interpose: Re5 is stopped by Pe6); Black mates with
// Re5-e1 (Ra3 cannot reach f1 or g1, nothing takes e1). Neither side has another check.
const char* const kBackRanks = "pieces white kh1 ra3 pg2h2 black kh8 re5 pe6g7h7\n";

}  // namespace

// Duplex #1: White's mate, then Black's with Black in White's part. Each phase ends with
// an empty line, as the phases of help play do in Popeye's Duplex output.
TEST(SolveDirect, DuplexSolvesForBothSides) {
    const std::string input =
        std::string("BeginProblem\n") + kBackRanks + "stip #1\noption duplex noboard\nEndProblem\n";
    EXPECT_EQ(solve_inline(input, 1), "\n   1.Ra3-a8 # !\n\n\n   1.Re5-e1 # !\n\n\nsolution finished.\n\n\n");
    EXPECT_EQ(solve_inline(input, 4), solve_inline(input, 1));
}

// HalfDuplex #1: only Black's part.
TEST(SolveDirect, HalfDuplexSolvesForTheOtherSideOnly) {
    const std::string input =
        std::string("BeginProblem\n") + kBackRanks + "stip #1\noption halfduplex noboard\nEndProblem\n";
    EXPECT_EQ(key_lines(solve_inline(input, 1)), std::vector<std::string>{"   1.Re5-e1 # !"});
}

// exact-#2 where a #1 exists: the mate on the first move does not count, and no quiet first
// move works: Black threatens Re5-e1#, so every white move that neither stops it nor mates
// is refuted by it or by the check Re5-e1+ (Kg1, g3, g4, h3, h4, Rf3, Rg3 leave White only
// an evasion or interposition, not a mate; Rb3, Rc3, Rd3, Rh3, Ra2, Ra4..Ra7 allow the mate);
// Ra1 is refuted by Re5-a5 (closing the a-file), Re3 shuts the rook off from the eighth
// rank. Plain #2 shows the short mate as its key.
TEST(SolveDirect, ExactPlayRejectsShortMates) {
    const std::string exact =
        std::string("BeginProblem\n") + kBackRanks + "stip exact-#2\noption noboard\nEndProblem\n";
    EXPECT_TRUE(key_lines(solve_inline(exact, 1)).empty());
    EXPECT_TRUE(key_lines(solve_inline(exact, 4)).empty());
    const std::string plain = std::string("BeginProblem\n") + kBackRanks + "stip #2\noption noboard\nEndProblem\n";
    EXPECT_EQ(key_lines(solve_inline(plain, 1)), std::vector<std::string>{"   1.Ra3-a8 # !"});
}
