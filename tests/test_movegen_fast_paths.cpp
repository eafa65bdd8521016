// generate_legal's fast paths under the Circe family (check tests on bitboards, pins, the
// Mars and Assassin shortcuts, classic-square captures) against the reference that plays
// every pseudo-legal move and tests the check rule (generate_legal_by_make). Positions: every
// position of ../shared/reference/movelists.jsonl under its condition (and its orthodox ones
// under variants of the families with their own generators), and the positions reached from
// them by seeded random games of 24 half-moves; at every node both lists must be the same moves,
// and has_legal_move must say whether the reference's list is empty.

#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "rebirth/goal.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_input.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"
#include "rebirth/walk.h"

#include "../src/core/walk_attacks.h"

namespace rebirth {
namespace {

namespace fs = std::filesystem;

// The moves of `list` as sorted texts (the text names the rebirth choices too).
std::vector<std::string> texts(const Position& pos, const MoveList& list) {
    std::vector<std::string> out;
    for (const Move& m : list) out.push_back(move_to_popeye(pos, m));
    std::sort(out.begin(), out.end());
    return out;
}

// Plays `games` seeded random games of 24 half-moves from start: at every node both
// generators must give the same moves. `nodes` counts the nodes compared.
::testing::AssertionResult same_moves_on_random_games(const Position& start, int games, std::mt19937& rng, int& nodes) {
    for (int game = 0; game < games; ++game) {
        Position pos = start;
        for (int ply = 0; ply < 24; ++ply) {
            MoveList fast, slow;
            generate_legal(pos, fast);
            generate_legal_by_make(pos, slow);
            const std::vector<std::string> a = texts(pos, fast), b = texts(pos, slow);
            if (a != b) {
                auto join = [](const std::vector<std::string>& v) {
                    std::string out;
                    for (const std::string& t : v) out += " " + t;
                    return out;
                };
                return ::testing::AssertionFailure() << "after " << ply << " random moves of game " << game << ": fast"
                                                     << join(a) << "; by make" << join(b);
            }
            // has_legal_move's own shortcuts (stopping at the first unit with a legal move).
            if (has_legal_move(pos) == slow.empty())
                return ::testing::AssertionFailure() << "after " << ply << " random moves of game " << game
                                                     << ": has_legal_move says " << !slow.empty() << " wrongly";
            ++nodes;
            if (fast.empty()) break;
            const Move m = fast[std::uniform_int_distribution<int>(0, fast.size() - 1)(rng)];
            UndoInfo u;
            pos.do_move(m, u);
        }
    }
    return ::testing::AssertionSuccess();
}

TEST(FastPaths, SameMovesAsPlayingEveryMove) {
    std::istringstream in(test::read_text(fs::path(REBIRTH_SHARED_DIR) / "reference" / "movelists.jsonl"));
    std::mt19937 rng(11);
    int nodes = 0, cases = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        if (j.contains("popeye_error")) continue;
        const std::string condition = j.at("condition");
        if (condition.empty()) continue;
        RuleSet rules = resolve_rules(parse_condition_words(condition, "movelists.jsonl"), "movelists.jsonl");
        SetupRules sr;
        sr.rules = &rules;
        Position start;
        try {
            start.set(parse_fen(j.at("fen").get<std::string>()), sr);
        } catch (const std::exception&) {
            continue;
        }
        ++cases;
        ASSERT_TRUE(same_moves_on_random_games(start, 12, rng, nodes)) << j.at("id") << " (" << condition << ")";
    }
    EXPECT_GE(cases, 200);
    std::printf("%d positions under %d conditioned cases\n", nodes, cases);
}

// The variants of the families with their own generators (Mars Circe, Anti-Circe and Circe
// Assassin alone) that movelists.jsonl does not name, on its orthodox positions: each rule
// word changes what the shortcut must decide (rebirth squares, occupied squares, kings).
TEST(FastPaths, SameMovesUnderTheShortcutFamiliesVariants) {
    const char* const variants[] = {
        "AntiCirce Relaxed",        "AntiCirce Mirror",       "AntiCirce RexExclusive",
        "AntiCirce Cheylan Mirror", "MarsCirce RexExclusive", "MarsCirce Mirror",
        "Circe Assassin Mirror",    "Circe Assassin PWC",     "MarsCirce Mirror RexExclusive"};
    // Besides movelists' orthodox positions, constructed ones where castling, checks from
    // mirrored capture squares and units reborn on a king's square come up at once.
    std::vector<std::pair<std::string, std::string>> starts = {
        {"mars-mirror-check", "r3k2r/8/8/8/8/8/3q4/R3K2R w KQkq - 0 1"},
        {"mars-mirror-pawn-check", "8/8/2k5/3p4/8/8/8/R3K2R w KQ - 0 1"},
        {"castling-pawns", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"},
        {"castling-black", "r3k2r/2b5/8/8/8/8/5B2/R3K2R b KQkq - 0 1"},
        {"minor-homes", "rn2k1nr/2b2b2/8/8/8/8/2B2B2/RN2K1NR w KQkq - 0 1"},
        {"queens-open", "r3k2r/8/8/3Q4/4q3/8/8/R3K2R w KQkq - 0 1"}};
    {
        std::istringstream in(test::read_text(fs::path(REBIRTH_SHARED_DIR) / "reference" / "movelists.jsonl"));
        for (std::string line; std::getline(in, line);) {
            if (line.empty()) continue;
            const auto j = nlohmann::json::parse(line);
            if (j.contains("popeye_error") || !j.at("condition").get<std::string>().empty()) continue;
            starts.emplace_back(j.at("id").get<std::string>(), j.at("fen").get<std::string>());
        }
    }
    std::mt19937 rng(29);
    int nodes = 0, cases = 0;
    for (const char* words : variants) {
        RuleSet rules = resolve_rules(parse_condition_words(words, "variants"), "variants");
        SetupRules sr;
        sr.rules = &rules;
        for (const auto& [id, fen] : starts) {
            Position start;
            try {
                start.set(parse_fen(fen), sr);
            } catch (const std::exception&) {
                continue;  // illegal under these rules (a king capturable at once)
            }
            ++cases;
            ASSERT_TRUE(same_moves_on_random_games(start, 8, rng, nodes)) << id << " (" << words << ")";
        }
    }
    EXPECT_GE(cases, 100);
    std::printf("%d positions under %d variant cases\n", nodes, cases);
}

// generate_legal_to (the targeted generator of the help-play search) gives exactly the moves
// of generate_legal whose destination is on the mask of their departure square (castling:
// the king's destination), for random masks, on movelists.jsonl's positions without a
// condition (the fast path) and with one (the filtered fallback), and on random games from
// them.
TEST(FastPaths, TargetedGenerationIsTheFilteredFullGeneration) {
    std::istringstream in(test::read_text(fs::path(REBIRTH_SHARED_DIR) / "reference" / "movelists.jsonl"));
    std::mt19937_64 rng(41);
    int nodes = 0, castlings = 0;
    std::vector<RuleSet> rule_sets;
    rule_sets.reserve(4096);
    for (std::string line; std::getline(in, line);) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        if (j.contains("popeye_error")) continue;
        const std::string condition = j.at("condition");
        SetupRules sr;
        if (!condition.empty()) {
            rule_sets.push_back(resolve_rules(parse_condition_words(condition, "movelists.jsonl"), "movelists.jsonl"));
            sr.rules = &rule_sets.back();
        }
        Position pos;
        try {
            pos.set(parse_fen(j.at("fen").get<std::string>()), sr);
        } catch (const std::exception&) {
            continue;
        }
        for (int ply = 0; ply < 12; ++ply) {
            MoveList all;
            generate_legal(pos, all);
            if (all.empty()) break;
            for (int trial = 0; trial < 3; ++trial) {
                std::array<Bitboard, SQUARE_NB> to;
                for (Bitboard& b : to) b = trial == 0 ? ~Bitboard(0) : rng() & rng();
                MoveList expected, got;
                for (const Move& m : all)
                    if (to[m.from] & square_bb(m.to)) expected.push(m);
                generate_legal_to(pos, to.data(), got);
                ASSERT_EQ(texts(pos, got), texts(pos, expected))
                    << j.at("id") << " after " << ply << " random moves, mask trial " << trial;
                for (const Move& m : got) castlings += m.kind == MoveKind::Castling;
                ++nodes;
            }
            const Move m = all[std::uniform_int_distribution<int>(0, all.size() - 1)(rng)];
            UndoInfo u;
            pos.do_move(m, u);
        }
    }
    EXPECT_GE(nodes, 1000);
    EXPECT_GT(castlings, 0);
}

// walk_attacks_square looks along the one ray that leads to the target; it must agree with
// the enumeration of every target (for_each_walk_target) for every walk, square pair and
// random occupancy, hurdles and blockers included.
TEST(FastPaths, WalkAttacksSquareAgreesWithTheTargetEnumeration) {
    std::mt19937_64 rng(20261126);
    int hits = 0;
    for (int w = PAWN + 1; w < walk_count() && w < WALK_NB; ++w) {
        for (int round = 0; round < 40; ++round) {
            const Bitboard occ = rng() & rng();  // about a quarter of the squares occupied
            for (int from = 0; from < 64; ++from) {
                Bitboard enumerated = 0;
                for_each_walk_target(Walk(w), Square(from), occ, [&](Square t) { enumerated |= square_bb(t); });
                for (int to = 0; to < 64; ++to) {
                    const bool expected = (enumerated & square_bb(Square(to))) != 0;
                    hits += expected;
                    ASSERT_EQ(walk_attacks_square(Walk(w), Square(from), Square(to), occ), expected)
                        << "walk " << walk_info(Walk(w)).name << " from " << from << " to " << to << " occ " << occ;
                }
            }
        }
    }
    EXPECT_GT(hits, 0);
}

}  // namespace
}  // namespace rebirth
