// Compares rebirth with Popeye 4.104 on ../shared/reference/movelists.jsonl (read in place):
// the depth-1 move list as a multiset of Popeye strings, and the depth-2 and depth-3 counts.
// Orthodox cases (empty condition) for now; conditions join with the rules issue.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rebirth/perft.h"
#include "rebirth/position.h"
#include "rebirth/setup.h"

using namespace rebirth;

namespace {

struct Case {
    std::string id;
    std::string fen;
    std::vector<std::string> moves;
    std::uint64_t perft2 = 0, perft3 = 0;
};

std::vector<Case> load_orthodox_cases() {
    std::vector<Case> cases;
    std::ifstream in(REBIRTH_SHARED_DIR "/reference/movelists.jsonl");
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        auto j = nlohmann::json::parse(line);
        if (!j.value("condition", std::string()).empty()) continue;
        Case c;
        c.id = j.at("id").get<std::string>();
        c.fen = j.at("fen").get<std::string>();
        c.moves = j.at("moves").get<std::vector<std::string>>();
        c.perft2 = j.at("perft").at("2").get<std::uint64_t>();
        c.perft3 = j.at("perft").at("3").get<std::uint64_t>();
        cases.push_back(std::move(c));
    }
    return cases;
}

// gtest prints a parameter by its id.
void PrintTo(const Case& c, std::ostream* os) { *os << c.id; }

class ReferenceMoveList : public ::testing::TestWithParam<Case> {};

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
    std::string n = info.param.id;
    for (char& ch : n)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return n;
}

}  // namespace

TEST(ReferenceFile, HasTheOrthodoxCases) {
    EXPECT_EQ(load_orthodox_cases().size(), 16u);
}

TEST_P(ReferenceMoveList, DivideAndCountsMatchPopeye) {
    const Case& c = GetParam();
    Position pos(parse_fen(c.fen));
    auto divide = perft_divide(pos, 1, 1);
    std::vector<std::string> ours;
    for (auto& [move, n] : divide) {
        ours.push_back(move);
        EXPECT_EQ(n, 1u);
    }
    std::vector<std::string> theirs = c.moves;
    std::sort(ours.begin(), ours.end());
    std::sort(theirs.begin(), theirs.end());
    EXPECT_EQ(ours, theirs);
    EXPECT_EQ(perft(pos, 2), c.perft2);
    EXPECT_EQ(perft(pos, 3), c.perft3);
}

INSTANTIATE_TEST_SUITE_P(Orthodox, ReferenceMoveList, ::testing::ValuesIn(load_orthodox_cases()), case_name);
