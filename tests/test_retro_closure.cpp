// The retraction closure (retro_closure.h): what it proves illegal must be illegal (the
// diagrams of the janko.at records, Retractor's `legal` labels and positions of random legal
// games, orthodox and under rebirth rules, are never refuted), and it proves janko.at's
// JR-D-103 lock, which no depth limit does.

#include <gtest/gtest.h>

#include "test_util.h"

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "rebirth/legality_proof.h"
#include "rebirth/movegen.h"
#include "rebirth/popeye_input.h"
#include "rebirth/position.h"
#include "rebirth/retro.h"
#include "rebirth/retro_closure.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"
#include "rebirth/unmove.h"

namespace rebirth {
namespace {

namespace fs = std::filesystem;

// janko.at's type D record JR-D-103 (lastmoves.jsonl: with White to move Black's last move
// was NxN, Ne4xNg5). With a7-a6 as Black's last move instead, White's last move before was
// O-O (so the king e1 and rook h1 never moved before it), and the black king on e3 can only
// be taken back to d4 after a white knight left d3 with a discovered check from d2, while
// Black's knight screens the bishop on h6 and a7-a6, Black's one spare move, is spent: the
// 219 positions the closure keeps go round in circles and none is the game array. Depth-bounded
// retraction (three single moves further back) and the cage search leave it. With
// Ne4xNg5 taken back instead, the knights change roles and the king gets out: not refuted
// with 25 times the positions. (Retro.LastMoveTypesOfTheDuplexJankoRecords counts the record
// proved: Black's NxN and White's O-O are all that is left.)
TEST(RetroClosure, JankoD103LockIsClosed) {
    const rebirth::Setup after_a6 = parse_fen("8/pp2pppp/4p2B/6n1/6P1/4kPPB/1PPR1RPr/2BQ1RK1 b - - 0 1");
    EXPECT_TRUE(closure_refutes(after_a6, 219));
    EXPECT_FALSE(closure_refutes(after_a6, 218));  // the limit counts every position kept
    EXPECT_TRUE(may_be_legal(after_a6, 3));
    const rebirth::Setup published = parse_fen("8/1p2pppp/p3p2B/6N1/4n1P1/4kPPB/1PPR1RPr/2BQ1RK1 b - - 0 1");
    EXPECT_FALSE(closure_refutes(published, 25 * 219));
    // The legality judge names the closure as its reason.
    const LegalityProof p = judge_legality(after_a6, 3, {1000, 1});
    EXPECT_EQ(p.verdict, LegalityProof::Verdict::Illegal);
    EXPECT_NE(p.reason.find("no history"), std::string::npos) << p.reason;
}

// The game array is never refuted; a position the static analysis refutes is, at once.
TEST(RetroClosure, Ends) {
    EXPECT_FALSE(closure_refutes(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"), 1));
    EXPECT_TRUE(closure_refutes(parse_fen("k7/8/8/8/8/8/8/K6P w - - 0 1"), 1));  // a pawn on h1
}

// The diagram of every janko.at record is legal (with its side to move; a duplex record's with
// either): never refuted.
TEST(RetroClosure, JankoDiagramsAreNeverRefuted) {
    const fs::path file = fs::path(REBIRTH_SHARED_DIR) / "reference" / "retro" / "lastmoves.jsonl";
    int checked = 0;
    for (const auto& j : test::read_jsonl(file)) {
        const std::string type = j["record_type"];
        if (type == "other") continue;
        const std::string to_move = j["retract_first"] == "w" ? "b" : "w";
        for (const char* stm : {"w", "b"}) {
            if (type != "D" && stm != to_move) continue;
            const std::string fen = j["placement"].get<std::string>() + " " + stm + " - - 0 1";
            EXPECT_FALSE(closure_refutes(parse_fen(fen), 500)) << j["id"] << ": " << fen;
            ++checked;
        }
    }
    EXPECT_EQ(checked, 57 + 2 * 54);
}

// Retractor's `legal` labels (legality.jsonl) are never refuted.
TEST(RetroClosure, LegalLabelsAreNeverRefuted) {
    const fs::path file = fs::path(REBIRTH_SHARED_DIR) / "reference" / "retro" / "legality.jsonl";
    int legal = 0;
    for (const auto& j : test::read_jsonl(file)) {
        if (j["expected"] != "legal") continue;
        ++legal;
        EXPECT_FALSE(closure_refutes(parse_fen(j["fen"].get<std::string>()), 1000)) << j["id"];
    }
    EXPECT_EQ(legal, 40);
}

// Positions of random legal games (fixed seeds), orthodox and under rebirth rules, with
// half of the moves pawn steps where one is possible (pawns shut units in), are never refuted.
TEST(RetroClosure, RandomGamesAreNeverRefuted) {
    for (const char* condition : {"", "Circe", "AntiCirce", "MarsCirce", "Circe Assassin"}) {
        SCOPED_TRACE(condition);
        const RuleSet rules = resolve_rules(parse_condition_words(condition, "test"), "test");
        const RuleSet* r = rules.orthodox() ? nullptr : &rules;
        SetupRules setup_rules;
        setup_rules.rules = r;
        std::mt19937 rng(7);
        int positions = 0;
        for (int game = 0; game < 12; ++game) {
            Position pos(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), setup_rules);
            const int plies = 10 + 7 * game;
            for (int ply = 0; ply < plies; ++ply) {
                MoveList list;
                generate_legal(pos, list);
                if (list.empty()) break;
                std::vector<Move> steps;
                for (const Move& m : list)
                    if (pos.piece_on(m.from).walk == PAWN && file_of(m.from) == file_of(m.to)) steps.push_back(m);
                const Move m = !steps.empty() && rng() % 2
                                   ? steps[rng() % steps.size()]
                                   : list[std::uniform_int_distribution<int>(0, int(list.size()) - 1)(rng)];
                UndoInfo u;
                pos.do_move(m, u);
            }
            rebirth::Setup diagram = pos.to_setup();
            diagram.castling = 0;
            diagram.ep_square = SQ_NONE;
            EXPECT_FALSE(closure_refutes(diagram, r ? 300 : 2000, r)) << to_fen(diagram);
            ++positions;
        }
        EXPECT_EQ(positions, 12);
    }
}

}  // namespace
}  // namespace rebirth
