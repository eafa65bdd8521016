// The passage bound of proof games (proof_passage.h): the switchback of the Natch 3.3 test
// undetermined_must_switchback, worked out by hand from the rules, and random games (the bound
// never exceeds the moves a unit made in a game that reaches the target).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "rebirth/bitboard.h"
#include "rebirth/distance.h"
#include "rebirth/movegen.h"
#include "rebirth/proof_bound.h"
#include "rebirth/proof_captures.h"
#include "rebirth/proof_passage.h"
#include "rebirth/setup.h"
#include "test_util.h"

namespace rebirth {
namespace {

using test::board_of;

// undetermined_must_switchback (../shared/reference/proofgames/natch.jsonl, 11.5 moves,
// unique): White's knight b8 is the a-pawn promoted. Black loses one unit only, so White takes
// once, and the a-pawn needs that capture to reach the b-file: it takes the b-pawn, which
// stands on b7 (or further down the b-file). Black's a8 rook, shut in by the pawn a7 (which
// never moves), goes to b3 down the b-file, so it must get past that pawn and then past the
// a-pawn on the b-file, which it cannot do on the file; round it by the sixth rank costs it
// three moves more (a8-b8-b6-e6-e3-b3), and Black's need (h7-h5-h4xg3xh2xg1=N, Nb8-a6,
// Ra8-b8-b3, Bc8-b7: nine) leaves it two of its eleven. The b-pawn cannot leave the file
// instead: its two captures and the h-pawn's one are all Black's three, and then no black
// unit takes White's h2 pawn, which the target lacks. So the rook passes b8 after the
// promotion, and the knight leaves b8 and comes back: seven moves, the published solution's.
// With two black moves more the rook goes round, and the pawn needs its five moves.
TEST(ProofPassage, TheKnightOnB8LeavesForTheRookAndComesBack) {
    const Position start(parse_fen(test::kGameArray));
    const Board target = board_of("1N1qkbnr/pbppppp1/n7/8/8/1r4P1/1PPPPPB1/1NBQKRn1 b - - 0 1");
    const Bitboard fixed = fixed_units(start, target);
    const Bitboard group = square_bb(SQ_A2) | square_bb(SQ_B7) | square_bb(SQ_A8) | square_bb(SQ_C8) |
                           square_bb(SQ_B8) | square_bb(SQ_H7) | square_bb(SQ_H2);
    EXPECT_EQ(passage_moves(start, target, fixed, {12, 11}, group, SQ_A2, SQ_B8, 2000000), 7);
    EXPECT_EQ(passage_moves(start, target, fixed, {12, 13}, group, SQ_A2, SQ_B8, 2000000), 5);
    // Without the h-pawns in the group the b-pawn may leave the file by two captures: no verdict.
    const Bitboard small = group & ~square_bb(SQ_H7) & ~square_bb(SQ_H2);
    EXPECT_EQ(passage_moves(start, target, fixed, {12, 11}, small, SQ_A2, SQ_B8, 2000000), 5);
    // Within its limit of positions the search gives the distance.
    EXPECT_EQ(passage_moves(start, target, fixed, {12, 11}, group, SQ_A2, SQ_B8, 100), 5);
    // A square the unit never fills, and one with no unit of its walk in the target.
    EXPECT_EQ(passage_moves(start, target, fixed, {12, 11}, group, SQ_A2, SQ_G1), kFar);
    EXPECT_EQ(passage_moves(start, target, fixed, {12, 11}, group, SQ_A2, SQ_A5), kFar);
}

// The floor in the capture bound (proof_captures.h): with the knight's seven moves White's
// count at the start of undetermined_must_switchback goes from 9 to 10 (its published game
// makes 12, Black's 11: the bound, floored or not, keeps that), and the floors passage_raises
// finds there include it.
TEST(ProofPassage, TheFloorRaisesTheCaptureBound) {
    const Position start(parse_fen(test::kGameArray));
    const Board target = board_of("1N1qkbnr/pbppppp1/n7/8/8/1r4P1/1PPPPPB1/1NBQKRn1 b - - 0 1");
    const Bitboard fixed = fixed_units(start, target);
    const std::vector<UnitCostFloor> floors{{SQ_A2, SQ_B8, 7}};
    EXPECT_TRUE(proof_captures_feasible(start, target, fixed, {9, 11}));
    EXPECT_FALSE(proof_captures_feasible(start, target, fixed, {9, 11}, nullptr, &floors));
    EXPECT_TRUE(proof_captures_feasible(start, target, fixed, {12, 11}, nullptr, &floors));
    const std::vector<UnitCostFloor> found = passage_raises(start, target, fixed, {12, 11}, 200000, 2);
    EXPECT_TRUE(std::any_of(found.begin(), found.end(),
                            [](const UnitCostFloor& f) { return f.unit == SQ_A2 && f.to == SQ_B8 && f.moves == 7; }));
    // None above what the published game's units make to end where they do (from its moves:
    // a2-b8 seven, h7-g1 seven, a8-b3 two, f1-g2, g2-g3, h1-f1, c8-b7, b8-a6 one each).
    const struct {
        Square from, to;
        int moves;
    } made[] = {{SQ_A2, SQ_B8, 7}, {SQ_H7, SQ_G1, 7}, {SQ_A8, SQ_B3, 2}, {SQ_F1, SQ_G2, 1},
                {SQ_G2, SQ_G3, 1}, {SQ_H1, SQ_F1, 1}, {SQ_C8, SQ_B7, 1}, {SQ_B8, SQ_A6, 1}};
    for (const UnitCostFloor& f : found)
        for (const auto& m : made)
            if (f.unit == m.from && f.to == m.to) {
                EXPECT_LE(f.moves, m.moves) << int(f.unit) << " to " << int(f.to);
            }
}

// promotee_must_switchback1 (Natch 3.3 tests, 8.5 moves, unique): Black's rook a8 must reach
// c8 through b8, where White's knight stands at the end: the d-pawn takes on c7 and b8,
// promoting, and the knight goes to a6 and back once the rook has passed (d2-d4-d5-d6xc7xb8=N,
// Nb8-a6-b8: seven moves, the published game's). White keeps all 16 units, so one of its
// three knights is the d-pawn promoted; were the knight b1 or g1 on b8, the promoted pawn
// (five moves at least to promote) would have to come back to b1 or g1 as a knight (four
// more at least), and the queen needs two moves to e6: more than White's nine.
TEST(ProofPassage, ThePromotedKnightOfPromoteeMustSwitchback) {
    const Position start(parse_fen(test::kGameArray));
    const Board target = board_of("1Nr1kbnr/p2pp1pp/2p1Q1b1/1p3p2/8/8/PPP1PPPP/RNB1KBNR b - - 0 1");
    const Bitboard fixed = fixed_units(start, target);
    const std::vector<UnitCostFloor> found = passage_raises(start, target, fixed, {9, 8}, 200000, 2);
    auto floor_of = [&](Square unit) {
        for (const UnitCostFloor& f : found)
            if (f.unit == unit && f.to == SQ_B8) return f.moves;
        return 0;
    };
    EXPECT_EQ(floor_of(SQ_D2), 7);
    EXPECT_EQ(floor_of(SQ_B1), kFar);
    EXPECT_EQ(floor_of(SQ_G1), kFar);
}

// The units of a game (a line of moves from the game array): for the position after k
// half-moves and each unit on it (kings apart) still on the board at the end, with the
// `group_size` units nearest to it as its group and the moves each side made after k as the
// budgets, the bound never exceeds the moves the unit made after k (castling moves the rook
// too). Counts the units checked and the bounds above the distance.
void check_line(const std::vector<Move>& moves, int k, int group_size, int max_states, int& checks, int& above) {
    Position pos(parse_fen(test::kGameArray));
    std::array<int, SQUARE_NB> id{};
    id.fill(-1);
    for (Bitboard b = pos.pieces(); b;) {
        const Square s = pop_lsb(b);
        id[s] = int(s);
    }
    std::vector<Position> line{pos};
    std::vector<std::array<int, SQUARE_NB>> ids{id};
    std::vector<int> mover_id, rook_id;  // per half-move: the unit that moved, and a castling rook
    for (const Move& m : moves) {
        const Color us = pos.side_to_move();
        mover_id.push_back(id[m.from]);
        rook_id.push_back(-1);
        id[capture_square(m, us)] = -1;
        id[m.to] = id[m.from];
        id[m.from] = -1;
        if (m.kind == MoveKind::Castling) {
            const int rank = rank_of(m.from);
            const bool king_side = file_of(m.to) > file_of(m.from);
            const Square rook = make_square(king_side ? 7 : 0, rank);
            rook_id.back() = id[rook];
            id[make_square(king_side ? 5 : 3, rank)] = id[rook];
            id[rook] = -1;
        }
        UndoInfo u;
        pos.do_move(m, u);
        line.push_back(pos);
        ids.push_back(id);
    }
    const int n = int(line.size()) - 1;
    const Board target = line.back().to_setup().board;
    const Position& p = line[size_t(k)];
    std::array<int, COLOR_NB> budget{};
    for (int i = k; i < n; ++i) ++budget[line[size_t(i)].side_to_move()];
    const Bitboard fixed = fixed_units(p, target);
    for (Bitboard b = p.pieces() & ~p.pieces(KING); b;) {
        const Square s = pop_lsb(b);
        const int unit = ids[size_t(k)][s];
        const auto end = std::find(ids.back().begin(), ids.back().end(), unit);
        if (end == ids.back().end()) continue;  // taken later
        const Square to = Square(end - ids.back().begin());
        int made = 0;
        for (int i = k; i < n; ++i) made += mover_id[size_t(i)] == unit || rook_id[size_t(i)] == unit;
        std::vector<Square> others;
        for (Bitboard o = p.pieces() & ~p.pieces(KING) & ~square_bb(s); o;) others.push_back(pop_lsb(o));
        auto king_steps = [&](Square q) {
            return std::max(std::abs(file_of(q) - file_of(s)), std::abs(rank_of(q) - rank_of(s)));
        };
        std::sort(others.begin(), others.end(), [&](Square a, Square c) {
            return king_steps(a) != king_steps(c) ? king_steps(a) < king_steps(c) : a < c;
        });
        Bitboard group = square_bb(s);
        for (size_t i = 0; i < std::min<size_t>(size_t(group_size), others.size()); ++i) group |= square_bb(others[i]);
        const int bound = passage_moves(p, target, fixed, budget, group, s, to, max_states);
        ASSERT_LE(bound, made) << "ply " << k << " unit on " << int(s) << " to " << int(to);
        const Piece u = p.piece_on(s);
        const Walk as =
            u.walk == PAWN && target[to].walk != PAWN ? (target[to].walk == KNIGHT ? KNIGHT : QUEEN) : u.walk;
        const std::uint8_t* d = (fixed & square_bb(s)) ? nullptr : blocked_distances_as(fixed, u.walk, u.color, s, as);
        if (d && bound > d[to]) ++above;
        ++checks;
    }
}

// The Natch 3.3 tests' published games (../shared/reference/proofgames/natch.jsonl, UCI),
// where the sides have few moves to spare: every position of each game, each unit with the
// four units nearest to it.
TEST(ProofPassage, NeverAboveTheMovesOfTheNatchGames) {
    const auto file = std::filesystem::path(REBIRTH_SHARED_DIR) / "reference" / "proofgames" / "natch.jsonl";
    int games = 0, checks = 0, above = 0;
    for (const auto& j : test::read_jsonl(file)) {
        for (const auto& g : j.at("solutions_uci")) {
            std::vector<Move> moves;
            Position pos(parse_fen(test::kGameArray));
            std::istringstream in(g.get<std::string>());
            for (std::string word; in >> word;) {
                MoveList list;
                generate_legal(pos, list);
                const Move* found = nullptr;
                for (const Move& m : list) {
                    std::string uci{char('a' + file_of(m.from)), char('1' + rank_of(m.from)), char('a' + file_of(m.to)),
                                    char('1' + rank_of(m.to))};
                    if (m.kind == MoveKind::Promotion) uci += std::string("..qrbn")[m.promotion];
                    if (uci == word) found = &m;
                }
                ASSERT_NE(found, nullptr) << j["id"] << ": " << word;
                moves.push_back(*found);
                UndoInfo u;
                pos.do_move(*found, u);
            }
            ++games;
            for (int k = 0; k + 1 < int(moves.size()); k += 2) {
                check_line(moves, k, 4, 3000, checks, above);
                if (testing::Test::HasFatalFailure()) {
                    ADD_FAILURE() << j["id"];
                    return;
                }
            }
        }
    }
    std::printf("%d games, %d units checked, %d bounds above the distance\n", games, checks, above);
    EXPECT_GT(games, 90);
    EXPECT_GT(above, 0);
}

// Random games from the game array (half of the moves pawn moves when there are some), each
// checked as check_line does from a position of its first quarter, with the three nearest
// units as the group.
TEST(ProofPassage, NeverAboveTheMovesOfARandomGame) {
    std::mt19937 rng(2026);
    int checks = 0, above = 0;
    for (int game = 0; game < 400; ++game) {
        Position pos(parse_fen(test::kGameArray));
        std::vector<Move> moves;
        const int plies = std::uniform_int_distribution<int>(4, 14)(rng);
        for (int ply = 0; ply < plies; ++ply) {
            MoveList list, pawns;
            generate_legal(pos, list);
            if (list.empty()) break;
            for (const Move& m : list)
                if (pos.piece_on(m.from).walk == PAWN) pawns.push(m);
            const MoveList& from = !pawns.empty() && rng() % 2 ? pawns : list;
            moves.push_back(from[std::uniform_int_distribution<int>(0, from.size() - 1)(rng)]);
            UndoInfo u;
            pos.do_move(moves.back(), u);
        }
        const int k = std::uniform_int_distribution<int>(0, int(moves.size()) / 4)(rng);
        check_line(moves, k, 3, 5000, checks, above);
        ASSERT_FALSE(testing::Test::HasFatalFailure()) << "game " << game;
    }
    std::printf("%d units checked, %d bounds above the distance\n", checks, above);
    EXPECT_GT(checks, 1000);
}

}  // namespace
}  // namespace rebirth
