// Compares rebirth with Popeye 4.104 on ../shared/reference/movelists.jsonl (read in place):
// for every case (16 positions x 28 conditions) the depth-1 move list as a multiset of
// Popeye strings (rebirth brackets and check marks included) and the perft counts Popeye
// gives; where Popeye refuses the position (`popeye_error`), rebirth must refuse it too.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "rebirth/error.h"
#include "rebirth/perft.h"
#include "rebirth/popeye_input.h"
#include "rebirth/position.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"

using namespace rebirth;

namespace {

struct Case {
    std::string id;
    std::string fen;
    std::string condition;
    std::vector<std::string> moves;
    std::vector<std::pair<int, std::uint64_t>> perft;  // (depth, count)
    std::string popeye_error;
};

std::vector<Case> load_cases() {
    std::vector<Case> cases;
    std::ifstream in(REBIRTH_SHARED_DIR "/reference/movelists.jsonl");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        auto j = nlohmann::json::parse(line);
        Case c;
        c.id = j.at("id").get<std::string>();
        c.fen = j.at("fen").get<std::string>();
        c.condition = j.value("condition", std::string());
        c.popeye_error = j.value("popeye_error", std::string());
        if (j.contains("moves")) c.moves = j.at("moves").get<std::vector<std::string>>();
        if (j.contains("perft"))
            for (auto& [depth, count] : j.at("perft").items())
                c.perft.emplace_back(std::stoi(depth), count.get<std::uint64_t>());
        std::sort(c.perft.begin(), c.perft.end());
        cases.push_back(std::move(c));
    }
    return cases;
}

// gtest prints a parameter by its id.
void PrintTo(const Case& c, std::ostream* os) { *os << c.id; }

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
    std::string n = info.param.id;
    for (char& ch : n)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return n;
}

// Cases where rebirth's count still differs from Popeye's at one depth, with the reason;
// every other depth of these cases is compared as usual. Issue 3 stays open for them.
struct KnownDivergence {
    const char* id;
    int depth;
    const char* reason;
};
constexpr KnownDivergence kKnownDivergences[] = {
    {"kiwipete:AntiMarsCirce", 3,
     "35102 vs Popeye's 33862; the independent model tests/oracle/antimars.py also gives 35102 and "
     "matches Popeye on the 14 other Anti-Mars positions; Popeye's Anti-Mars castling state kept "
     "per move id is suspected"},
    {"kiwipete_b:AntiMarsCirce", 3, "33264 vs Popeye's 33193 (model: 33264); as kiwipete:AntiMarsCirce"},
};

const KnownDivergence* known_divergence(const std::string& id, int depth) {
    for (const KnownDivergence& k : kKnownDivergences)
        if (id == k.id && depth == k.depth) return &k;
    return nullptr;
}

class ReferenceMoveList : public ::testing::TestWithParam<Case> {};

}  // namespace

TEST(ReferenceFile, HoldsSixteenPositionsTimesTwentyEightConditions) {
    auto cases = load_cases();
    EXPECT_EQ(cases.size(), 16u * 28u);
    EXPECT_EQ(std::count_if(cases.begin(), cases.end(), [](const Case& c) { return c.condition.empty(); }), 16);
}

TEST_P(ReferenceMoveList, MatchesPopeye) {
    const Case& c = GetParam();
    const RuleSet rules = resolve_rules(parse_condition_words(c.condition, "movelists.jsonl"), "movelists.jsonl");
    SetupRules setup_rules;
    setup_rules.rules = &rules;
    if (!c.popeye_error.empty()) {
        EXPECT_THROW(Position(parse_fen(c.fen), setup_rules), InputError) << "Popeye: " << c.popeye_error;
        return;
    }
    Position pos(parse_fen(c.fen), setup_rules);
    std::vector<std::string> ours;
    for (auto& [move, n] : perft_divide(pos, 1, 1)) ours.push_back(move);
    std::vector<std::string> theirs = c.moves;
    std::sort(ours.begin(), ours.end());
    std::sort(theirs.begin(), theirs.end());
    EXPECT_EQ(ours, theirs);
    std::string skipped;
    for (auto [depth, count] : c.perft) {
        if (depth == 1) {
            EXPECT_EQ(ours.size(), count);
            continue;
        }
        if (const KnownDivergence* k = known_divergence(c.id, depth)) {
            skipped = "depth " + std::to_string(depth) + " not compared: " + k->reason;
            continue;
        }
        EXPECT_EQ(perft(pos, depth), count) << "depth " << depth;
    }
    if (!skipped.empty()) GTEST_SKIP() << skipped;
}

INSTANTIATE_TEST_SUITE_P(Popeye, ReferenceMoveList, ::testing::ValuesIn(load_cases()), case_name);
