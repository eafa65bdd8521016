// The capture bound of proof games (proof_captures.h) and the castling saving
// (proof_bound.h): hand-worked positions, and played games (never more than the game made).

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "rebirth/bitboard.h"
#include "rebirth/distance.h"
#include "rebirth/movegen.h"
#include "rebirth/proof_bound.h"
#include "rebirth/proof_captures.h"
#include "rebirth/setup.h"
#include "test_util.h"

namespace rebirth {
namespace {

using test::board_of;
const char* const kStart = test::kGameArray;

// Caillaud & Rotenberg, Europe Echecs 1991 (Popeye's BEISPIEL/proof.inp, dia 7): Black needs
// all of its 7 moves (Ke8-f7-f6, Qd8-e8, Bc8-g4xe2, f7-f5-f4; its rooks stay home, so castling
// saves nothing), so the unit White takes is the one the target lacks, the pawn d7, taken
// where it stands. White's only other move is f2-f3: a knight goes to d7 and back, 3 + 3.
TEST(ProofCaptures, TheTakenUnitStaysWhereItStandsWhenItsSideHasNoMoveToSpare) {
    const Position start(parse_fen(kStart));
    const Board target = board_of("rn2qbnr/ppp1p1pp/5k2/8/5p2/5P2/PPPPb1PP/RNBQKBNR w - - 0 1");
    const Bitboard fixed = fixed_units(start, target);
    EXPECT_EQ(castling_saving(start, target, BLACK, fixed), 0);
    EXPECT_EQ(proof_moves_needed(start, target, BLACK, fixed), 7);
    EXPECT_EQ(proof_moves_needed(start, target, WHITE, fixed), 1);
    EXPECT_EQ(proof_capture_squares(start, target, BLACK, 7, fixed), square_bb(SQ_D7));
    // With one more black move the pawn may step to d6 or d5 first (d7-d5 is one move).
    // With one black move to spare the pawn d7 may step or take once first (d6, d5, c6, e6),
    // or the pawn f7 is taken where it stands and d7 goes d6-e5-f4 (3 moves instead of 2).
    EXPECT_EQ(proof_capture_squares(start, target, BLACK, 8, fixed), square_bb(SQ_D7) | square_bb(SQ_D6) |
                                                                         square_bb(SQ_D5) | square_bb(SQ_C6) |
                                                                         square_bb(SQ_E6) | square_bb(SQ_F7));
    EXPECT_TRUE(proof_captures_feasible(start, target, fixed, {7, 7}));
    // Black must take too (the e-pawn or what it became): Bc8-g4xe2 goes through e2, where the
    // pawn stands.
    EXPECT_TRUE(
        proof_capture_possible(start, target, BLACK, fixed, proof_capture_squares(start, target, WHITE, 7, fixed), 7));
}

// The game array less the pawn d7, Black with no move left: White must take on d7 and come
// back. Every white unit but the knights is walled in by the pawns the target keeps at home
// (and the bishops they wall in), so Sg1-f3-e5xd7-e5-f3-g1: six moves, not five.
TEST(ProofCaptures, TheCapturerComesBack) {
    const Position start(parse_fen(kStart));
    const Board target = board_of("rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    const Bitboard fixed = fixed_units(start, target);
    EXPECT_EQ(proof_moves_needed(start, target, WHITE, fixed), 0);
    EXPECT_EQ(proof_capture_squares(start, target, BLACK, 0, fixed), square_bb(SQ_D7));
    EXPECT_TRUE(proof_captures_feasible(start, target, fixed, {6, 0}));
    EXPECT_FALSE(proof_captures_feasible(start, target, fixed, {5, 0}));
    // Black takes nothing: no bound on it, however few its moves.
    EXPECT_TRUE(proof_captures_feasible(start, target, fixed, {6, 0}));
}

// The game array less the pawns a2 and h2, Black back home after at most 4 moves: both pawns
// must leave (no target square is theirs: a pawn never goes back, and White takes nothing to
// change file), so both are taken. Only Black's knights can take and come home (every black
// pawn is kept at home, walling in the bishops, and the queen, king and rooks can only
// shuffle on their rank, where no white pawn comes): each takes within two of its moves out
// of four, so within two knight moves of b8 or g8 (a5, b4 and c6 nearest the a-pawn; g4,
// h5 and f6 nearest the h-pawn). Each pawn needs two moves to get there (a2-a4-a5, h2-h4-h5):
// four white moves. One victim at a time (capture_possible) lets White go with two.
TEST(ProofCaptures, EveryLostUnitGoesWhereTheOtherSideCanTakeIt) {
    const Position start(parse_fen(kStart));
    const Board target = board_of("rnbqkbnr/pppppppp/8/8/8/8/1PPPPPP1/RNBQKBNR w - - 0 1");
    const Bitboard fixed = fixed_units(start, target);
    EXPECT_EQ(proof_moves_needed(start, target, WHITE, fixed), 0);
    EXPECT_TRUE(proof_captures_feasible(start, target, fixed, {4, 4}));
    EXPECT_FALSE(proof_captures_feasible(start, target, fixed, {3, 4}));
    EXPECT_FALSE(proof_captures_feasible(start, target, fixed, {2, 4}));
}

// squares_within (distance.h), which the capture squares are made of, against a plain count.
TEST(ProofCaptures, SquaresWithinADistance) {
    for (Walk w : {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN})
        for (Square from : {SQ_A1, SQ_E4, SQ_G7, SQ_B2})
            for (int n = -1; n <= 8; ++n) {
                const std::uint8_t* d = empty_distances_from(w, WHITE, from);
                Bitboard expected = 0;
                for (int q = 0; q < 64; ++q)
                    if (d[q] <= n) expected |= square_bb(Square(q));
                EXPECT_EQ(squares_within(d, n), expected) << int(w) << " " << int(from) << " " << n;
            }
    EXPECT_EQ(squares_within(empty_distances_from(KNIGHT, WHITE, SQ_A1), 1),
              square_bb(SQ_A1) | square_bb(SQ_B3) | square_bb(SQ_C2));
    EXPECT_EQ(squares_within(empty_distances_from(KNIGHT, WHITE, SQ_A1), kFar), ~Bitboard(0));
}

// Castling saves the rook's move to its castled square, so nothing when the rooks end at
// home, and one move when a rook ends nearer to f1 (or d1) than to its corner.
TEST(ProofCaptures, CastlingSavesAMoveOnlyForARookThatStaysAway) {
    const Position start(parse_fen(kStart));
    // e2-e3, Bf1-e2, Sg1-f3, O-O: five unit moves in four.
    const Board castled = board_of("rnbqkbnr/pppppppp/8/8/8/4PN2/PPPPBPPP/RNBQ1RK1 b kq - 0 1");
    EXPECT_EQ(castling_saving(start, castled, WHITE, fixed_units(start, castled)), 1);
    EXPECT_EQ(proof_moves_needed(start, castled, WHITE), 4);
    // The same with Ke1-f1 and both rooks at home: castling would save nothing (the rook h1
    // would go back; the queen side is shut by the bishop c1, walled in by b2 and d2).
    const Board walked = board_of("rnbqkbnr/pppppppp/8/8/8/4PN2/PPPPBPPP/RNBQ1K1R b kq - 0 1");
    EXPECT_EQ(castling_saving(start, walked, WHITE, fixed_units(start, walked)), 0);
    EXPECT_EQ(proof_moves_needed(start, walked, WHITE), 4);
    // The king back at home with the rook on f1: castling costs three moves more than it saves.
    const Board home = board_of("rnbqkbnr/pppppppp/8/8/8/4PN2/PPPPBPPP/RNBQKR2 b kq - 0 1");
    EXPECT_EQ(castling_saving(start, home, WHITE, fixed_units(start, home)), 0);
    EXPECT_EQ(proof_moves_needed(start, home, WHITE), 4);
}

// Along a played line, with its last board as target: "" when no bound refuses at any
// position what the line still makes, else where one does.
std::string refusal_along(const std::vector<Position>& line) {
    const Board target = line.back().to_setup().board;
    const int n = int(line.size()) - 1;
    for (int k = 0; k <= n; ++k) {
        int white = 0, black = 0;
        for (int i = k; i < n; ++i) (line[i].side_to_move() == WHITE ? white : black)++;
        const Bitboard fixed = fixed_units(line[k], target);
        const std::string at = "ply " + std::to_string(k) + " of " + std::to_string(n) + ": ";
        if (proof_moves_needed(line[k], target, WHITE, fixed) > white) return at + "White's moves";
        if (proof_moves_needed(line[k], target, BLACK, fixed) > black) return at + "Black's moves";
        if (!proof_captures_feasible(line[k], target, fixed, {white, black})) return at + "captures";
    }
    return "";
}

// Natch's undetermined_must_switchback (PG 11.5): a position its search meets with six moves
// left to each side. Black needs all six (Rb8-b3, Bc8-b7, the h-pawn to g1 as a knight in
// four), so the one black unit it loses is the pawn b7, taken where it stands: every white
// capture lands on b7. White keeps 13 of its 16 units and needs Sc6-b8, Bf1-g2, Rh1-f1
// (3 moves); of its three victims h2 is taken where it stands (h5xg4, g3xh2, h2xg1=S) and
// Ra1 needs two moves into Black's reach (a1-a3-b3); the third costs more than the one move
// left: a2 takes on b3 only by taking a black unit there, and the other units are needed on
// their squares or too far.
TEST(ProofCaptures, PawnsTakeOnlyWhereTheOtherSideCanLoseUnits) {
    const Board target = board_of("1N1qkbnr/pbppppp1/n7/8/8/1r4P1/1PPPPPB1/1NBQKRn1 w - - 0 1");
    const Position pos(parse_fen("1rbqkbnr/ppppppp1/n1N5/7p/8/6P1/PPPPPP1P/RNBQKB1R b KQk - 0 6"));
    const Bitboard fixed = fixed_units(pos, target);
    EXPECT_EQ(proof_moves_needed(pos, target, WHITE, fixed), 3);
    EXPECT_EQ(proof_moves_needed(pos, target, BLACK, fixed), 6);
    EXPECT_EQ(proof_capture_squares(pos, target, BLACK, 6, fixed), square_bb(SQ_B7));
    EXPECT_FALSE(proof_captures_feasible(pos, target, fixed, {6, 6}));
    // With two black moves to spare: no verdict.
    EXPECT_TRUE(proof_captures_feasible(pos, target, fixed, {6, 8}));
}

// The same target, another position of that search, six moves each left. Black has two
// knights for three knight squares, so one of its pawns promotes to a knight. The pawn b7
// would go b5, take on a4, a3, a2, a1=S and on: far more than Black's six moves. The pawn h3
// either takes on g2, where the only white unit that can stand then is the bishop White needs
// there (no other white bishop can come: c1 is walled in by b2 and d2), or goes h2, h1=S and
// on to g1 (2 + 3 moves: with Rb8-b3 and Bc8-b7, seven). So Black cannot promote in time.
TEST(ProofCaptures, AForcedPromotionTakesWhereTheOtherSideCanLoseUnits) {
    const Board target = board_of("1N1qkbnr/pbppppp1/n7/8/8/1r4P1/1PPPPPB1/1NBQKRn1 w - - 0 1");
    const Position pos(parse_fen("1rbqkbnr/ppppppp1/n7/8/P7/N4NPp/RPPPPPBP/2BQK2R b Kk - 1 6"));
    const Bitboard fixed = fixed_units(pos, target);
    EXPECT_EQ(proof_moves_needed(pos, target, BLACK, fixed), 4);  // h3xg2, g1=S counted as free
    EXPECT_FALSE(proof_capture_squares(pos, target, WHITE, 6, fixed) & square_bb(SQ_G2));
    EXPECT_FALSE(proof_captures_feasible(pos, target, fixed, {6, 6}));
    // With three more black moves the pawn may promote on h1 and the knight go round to g1.
    EXPECT_TRUE(proof_captures_feasible(pos, target, fixed, {6, 9}));
}

// Soundness where promotions are forced: seeded random games that push pawns and take with
// them whenever they can (otherwise any move), kept when a pawn promoted; along each, with
// the final board as target and the moves each side still made, the bound never refuses,
// also with the budget walls (settled_walls) as fixed units, and the walls stay till the end.
TEST(ProofCaptures, NeverRefusesTheRestOfAGameWithPromotions) {
    std::mt19937 rng(31);
    int promoted = 0;
    for (int game = 0; game < 4000 && promoted < 200; ++game) {
        Position pos(parse_fen(kStart));
        std::vector<Position> line{pos};
        bool promotes = false;
        for (int ply = 0; ply < 30 + game % 30; ++ply) {
            MoveList list, pick;
            generate_legal(pos, list);
            if (list.empty()) break;
            for (const Move& m : list)
                if (pos.piece_on(m.from).walk == PAWN) pick.push(m);
            if (pick.empty() || rng() % 3 == 0) pick = list;
            const Move m = pick[std::uniform_int_distribution<int>(0, pick.size() - 1)(rng)];
            promotes = promotes || m.kind == MoveKind::Promotion;
            UndoInfo u;
            pos.do_move(m, u);
            line.push_back(pos);
        }
        if (!promotes) continue;
        ++promoted;
        const Board target = line.back().to_setup().board;
        const int n = int(line.size()) - 1;
        for (int k = 0; k <= n; ++k) {
            std::array<int, COLOR_NB> left{0, 0};
            for (int i = k; i < n; ++i) left[line[i].side_to_move()]++;
            const Bitboard fixed = fixed_units(line[k], target);
            ASSERT_TRUE(proof_captures_feasible(line[k], target, fixed, left)) << "game " << game << " ply " << k;
            // The budget walls (proof_bound.h) too: they stay, and the bounds hold with them.
            const Bitboard walls = settled_walls(line[k], target, fixed, left);
            for (Bitboard b = walls; b;) {
                const Square s = pop_lsb(b);
                for (int j = k + 1; j <= n; ++j)
                    ASSERT_EQ(line[j].piece_on(s), line[k].piece_on(s)) << "game " << game << " ply " << k;
            }
            const Bitboard all = fixed_units(line[k], target, fixed | walls);
            for (Color c : {WHITE, BLACK})
                ASSERT_LE(proof_moves_needed(line[k], target, c, all), left[c]) << "game " << game << " ply " << k;
            ASSERT_TRUE(proof_captures_feasible(line[k], target, all, left)) << "game " << game << " ply " << k;
        }
    }
    EXPECT_GE(promoted, 150);
}

// CaptureBoundCache gives proof_captures_feasible's verdict, with moves to spare and with too
// few (so that refusals are compared too), on every position of random games, each asked
// twice so that the second answer uses the remembered assignments.
TEST(ProofCaptures, CacheGivesTheSameVerdicts) {
    std::mt19937 rng(43);
    int refused = 0;
    for (int game = 0; game < 80; ++game) {
        const std::vector<Position> line = test::random_line(Position(parse_fen(kStart)), 14 + game % 16, rng);
        const Board target = line.back().to_setup().board;
        CaptureBoundCache cache(target);
        const int n = int(line.size()) - 1;
        for (int round = 0; round < 2; ++round)
            for (int k = 0; k <= n; ++k) {
                int white = 0, black = 0;
                for (int i = k; i < n; ++i) (line[i].side_to_move() == WHITE ? white : black)++;
                const Bitboard fixed = fixed_units(line[k], target);
                for (int less = 0; less <= 4; ++less) {
                    const std::array<int, COLOR_NB> left{std::max(0, white - less), std::max(0, black - less / 2)};
                    const bool plain = proof_captures_feasible(line[k], target, fixed, left);
                    ASSERT_EQ(proof_captures_feasible(line[k], target, fixed, left, &cache), plain)
                        << "game " << game << " ply " << k;
                    refused += !plain;
                }
            }
    }
    EXPECT_GT(refused, 100);
}

// Soundness on played games: along seeded random games from the game array, captures
// frequent, the bounds never refuse the rest of the game.
TEST(ProofCaptures, NeverRefusesTheRestOfARandomGame) {
    std::mt19937 rng(17);
    int capturing = 0;
    for (int game = 0; game < 400; ++game) {
        const std::vector<Position> line = test::random_line(Position(parse_fen(kStart)), 12 + game % 20, rng);
        ASSERT_EQ(refusal_along(line), "") << "game " << game;
        if (popcount(line.back().pieces()) < 32) ++capturing;
    }
    EXPECT_GT(capturing, 200);
}

// The same on games that castle whenever they can (and otherwise move at random, quiet moves
// three times in four): the castling saving and the bounds that use it never refuse the rest.
TEST(ProofCaptures, NeverRefusesTheRestOfAGameThatCastles) {
    std::mt19937 rng(23);
    int castled = 0;
    for (int game = 0; game < 1000; ++game) {
        Position pos(parse_fen(kStart));
        std::vector<Position> line{pos};
        for (int ply = 0; ply < 14 + game % 16; ++ply) {
            MoveList list, pick;
            generate_legal(pos, list);
            if (list.empty()) break;
            for (const Move& m : list)
                if (m.kind == MoveKind::Castling) pick.push(m);
            if (pick.empty() || rng() % 4 == 0) {
                pick = MoveList();
                const bool quiet = rng() % 4 != 0;
                for (const Move& m : list)
                    if (!quiet || (pos.empty(m.to) && m.kind != MoveKind::EnPassant)) pick.push(m);
                if (pick.empty()) pick = list;
            } else {
                ++castled;
            }
            UndoInfo u;
            pos.do_move(pick[std::uniform_int_distribution<int>(0, pick.size() - 1)(rng)], u);
            line.push_back(pos);
        }
        ASSERT_EQ(refusal_along(line), "") << "game " << game;
    }
    EXPECT_GT(castled, 200);
}

}  // namespace
}  // namespace rebirth
