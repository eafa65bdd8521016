// Proof-game bounds (proof_bound.h) on targets whose needs are worked out by hand, and on
// random games (never more than the game made).

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "rebirth/bitboard.h"
#include "rebirth/distance.h"
#include "rebirth/movegen.h"
#include "rebirth/proof_bound.h"
#include "rebirth/setup.h"
#include "test_util.h"

namespace rebirth {
namespace {

using test::board_of;
const char* const kStart = test::kGameArray;

// The moves each side still makes from ply k of a game of n plies from the game array (White
// moves at the even plies).
std::array<int, COLOR_NB> moves_left(int k, int n) {
    std::array<int, COLOR_NB> left{0, 0};
    for (int i = k; i < n; ++i) left[i % 2 == 0 ? WHITE : BLACK]++;
    return left;
}

// corridors_allow on Retractor's LG-121 (Qf1, Rg1, Kh1 behind the unmoved pawns b2-h2, Bc1
// shut in by b2 and d2): on f1-h1 the king and rook stand in the order only castling makes.
// From a position whose king walked to g1 with the rook still on h1, no game leads there (the
// two never pass each other on a rank shut by units that never move); from one whose king and
// rook keep the castling right, or whose corridor is open (g2 moved), the order proves nothing;
// a unit of the other side that the target has in the corridor never gets in, nor does a piece
// from beyond a fixed unit.
TEST(ProofBound, FirstRankCorridorsKeepTheirOrder) {
    const Board target = board_of("3r3r/p2p1p1p/b1p2kp1/1p1npq1n/P7/8/1PPPPPPP/RNB2QRK w - - 0 1");
    const auto allow = [&](const char* fen, const Board& t) {
        const Position pos(parse_fen(fen));
        return corridors_allow(pos, t, fixed_units(pos, t));
    };
    EXPECT_FALSE(allow("3r3r/p2p1p1p/b1p2kp1/1p1npq1n/P7/8/1PPPPPPP/RNB2QKR w - - 0 1", target));
    EXPECT_TRUE(allow("rnbqkbnr/pppppppp/8/8/P7/8/1PPPPPPP/RNBQKBNR b KQkq - 0 1", target));
    EXPECT_TRUE(allow("3r3r/p2p1p1p/b1p2kp1/1p1npq1n/P7/8/1PPPPPPP/RNBQK2R w K - 0 1", target));
    EXPECT_FALSE(allow("3r3r/p2p1p1p/b1p2kp1/1p1npq1n/P7/8/1PPPPPPP/RNBQK2R w - - 0 1", target));
    // g2 gone from the target and the position: the king and rook may leave the rank.
    const Board open = board_of("3r3r/p2p1p1p/b1p2kp1/1p1npq1n/P7/8/1PPPPP1P/RNB2QRK w - - 0 1");
    EXPECT_TRUE(allow("3r3r/p2p1p1p/b1p2kp1/1p1npq1n/P7/8/1PPPPP1P/RNB2QKR w - - 0 1", open));
    // A black bishop on e1 in the target: nothing of Black's but a knight gets into d1-h1.
    const Board black_in = board_of("3r3r/p2p1p1p/2p2kp1/1p1npq1n/P7/8/1PPPPPPP/RNB1bQRK w - - 0 1");
    EXPECT_FALSE(allow("3r3r/p2p1p1p/b1p2kp1/1p1npq1n/P7/8/1PPPPPPP/RNB1QRK1 w - - 0 1", black_in));
    // The queen on d1 cannot get past the bishop c1 (fixed) to b1.
    const Board queen_b1 = board_of("4k3/8/8/8/8/8/PPPPPPPP/RQB1K3 w - - 0 1");
    EXPECT_FALSE(allow("4k3/8/8/8/8/8/PPPPPPPP/R1BQK3 w - - 0 1", queen_b1));
    EXPECT_TRUE(allow("4k3/8/8/8/8/8/PPPPPPPP/R1BQK3 w - - 0 1", board_of("4k3/8/8/8/8/8/PPPPPPPP/R1B1K3 w - - 0 1")));
}

TEST(ProofBound, MovesNeededFromTheGameArray) {
    const Position start(parse_fen(kStart));
    // 1.e4: one white move, none for Black.
    const Board e4 = board_of("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_TRUE(proof_bound_applies(start, e4));
    EXPECT_EQ(proof_moves_needed(start, e4, WHITE), 1);
    EXPECT_EQ(proof_moves_needed(start, e4, BLACK), 0);
    // A white pawn on d5 (d2-d4, d4-d5) and a knight on c3 (Sb1-c3): three moves.
    const Board d5 = board_of("rnbqkbnr/pppppppp/8/3P4/8/2N5/PPP1PPPP/R1BQKBNR b KQkq - 0 1");
    EXPECT_EQ(proof_moves_needed(start, d5, WHITE), 3);
    // Black castled short and played Sg8-f6 and e7-e6, Bf8-e7: castling moves king and rook
    // with one move: 1 (e6) + 1 (Sf6) + 1 (Be7) + 1 (0-0) = 4, counted as 5 - 1.
    const Board castled = board_of("rnbq1rk1/ppppbppp/4pn2/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1");
    EXPECT_EQ(proof_moves_needed(start, castled, BLACK), 4);
}

// Black's c-pawn on b6 with a7 and b7 kept: only c7 can fill b6, by capturing there, so a
// white unit is taken on b6 and must get there first: the b1 knight (the only white unit off
// its target square), three moves (b1-c3-d5-b6), where the target squares alone need none.
// With b7 gone too, the b-pawn fills b6 without capturing: no such capture.
TEST(ProofBound, CapturesPawnsMustMakeTakeUnitsThatGetThere) {
    const Position start(parse_fen(kStart));
    const Board b6 = board_of("rnbqkbnr/pp1ppppp/1p6/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
    std::array<Bitboard, 8> slots{};
    ASSERT_EQ(pawn_capture_slots(start, b6, BLACK, fixed_units(start, b6), slots), 1);
    EXPECT_EQ(slots[0], square_bb(SQ_B6));
    EXPECT_EQ(pawn_capture_slots(start, b6, WHITE, fixed_units(start, b6), slots), 0);
    EXPECT_EQ(proof_moves_needed(start, b6, WHITE), 3);
    const Board b7_gone = board_of("rnbqkbnr/p2ppppp/1p6/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 1");
    EXPECT_EQ(pawn_capture_slots(start, b7_gone, BLACK, fixed_units(start, b7_gone), slots), 0);
}

// pawn_capture_ways, worked out by hand. Target: White's d-pawn on c4 (the c2 and b2 pawns
// stay home, fixed), one black unit (the b8 knight) gone: only d2 fills c4, with one capture,
// on c3 or c4. With White's b2 pawn gone too, b2 or d2 fills c4 (two ways, the same squares).
// With a second black unit gone the e-pawn may take twice (e2xd3xc4, d2 then gone as well):
// a third way, d3 then c4. More ways than asked for: false.
TEST(ProofBound, PawnCaptureWays) {
    const Position start(parse_fen(kStart));
    const Board c4 = board_of("r1bqkbnr/pppppppp/8/8/2P5/8/PPP1PPPP/RNBQKBNR w KQkq - 0 1");
    std::vector<PawnCaptureWay> ways;
    ASSERT_TRUE(pawn_capture_ways(start, c4, WHITE, fixed_units(start, c4), ways, 8));
    ASSERT_EQ(ways.size(), 1u);
    ASSERT_EQ(ways[0].slots, 1);
    EXPECT_EQ(ways[0].squares[0], square_bb(SQ_C3) | square_bb(SQ_C4));
    // Black's units keep their squares but the b8 knight, which must stand on c3 or c4 when it
    // is taken: c4 is three knight moves away (b8-d7-b6-c4), c3 four (a step of (1, 5): knight
    // moves change the parity of dx + dy, so an even number of them).
    EXPECT_EQ(proof_moves_needed(start, c4, BLACK), 3);
    const Board c4_b2 = board_of("r1bqkbnr/pppppppp/8/8/2P5/8/P1P1PPPP/RNBQKBNR w KQkq - 0 1");
    ASSERT_TRUE(pawn_capture_ways(start, c4_b2, WHITE, fixed_units(start, c4_b2), ways, 8));
    ASSERT_EQ(ways.size(), 2u);
    const Board c4_two = board_of("r1bqkb1r/pppppppp/8/8/2P5/8/P1P2PPP/RNBQKBNR w KQkq - 0 1");
    ASSERT_TRUE(pawn_capture_ways(start, c4_two, WHITE, fixed_units(start, c4_two), ways, 8));
    ASSERT_EQ(ways.size(), 3u);
    bool twice = false;
    for (const PawnCaptureWay& w : ways)
        if (w.slots == 2) {
            twice = true;
            EXPECT_EQ(w.squares[0], square_bb(SQ_D3));
            EXPECT_EQ(w.squares[1], square_bb(SQ_C4));
        }
    EXPECT_TRUE(twice);
    EXPECT_FALSE(pawn_capture_ways(start, c4_two, WHITE, fixed_units(start, c4_two), ways, 2));
    EXPECT_TRUE(ways.empty());
}

// A pawn changes file only by taking, and White takes at most the black units the target
// does not keep: e2 to c4 takes twice. With one black unit to take it never gets there; with
// two it needs two moves (e2xd3xc4).
TEST(ProofBound, APawnChangesFilesAtMostAsOftenAsItCanTake) {
    const Position one(parse_fen("1n2k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
    const Board c4 = board_of("4k3/8/8/8/2P5/8/8/4K3 w - - 0 1");
    EXPECT_GE(proof_moves_needed(one, c4, WHITE), kFar);
    const Position two(parse_fen("1nb1k3/8/8/8/8/8/4P3/4K3 w - - 0 1"));
    EXPECT_EQ(proof_moves_needed(two, c4, WHITE), 2);
    // Promoting: a2 to a queen on d7 takes five moves to a promotion square, then one from c8
    // (two files away: two takes) or two from a8 or b8.
    const Board d7 = board_of("7k/3Q4/8/8/8/8/8/4K3 w - - 0 1");
    EXPECT_EQ(proof_moves_needed(Position(parse_fen("1n5k/8/8/8/8/8/P7/4K3 w - - 0 1")), d7, WHITE), 7);
    EXPECT_EQ(proof_moves_needed(Position(parse_fen("1nb4k/8/8/8/8/8/P7/4K3 w - - 0 1")), d7, WHITE), 6);
}

// The king's distances count castling's two-file step as one move; a king that can no longer
// castle (rights gone, the king still at home) needs two moves from e8 to c8. (With the right,
// two as well: 0-0-0 and the rook back to a8, or Kd8-c8; the bound may say less.)
TEST(ProofBound, AKingThatCannotCastleWalks) {
    const Board c8 = board_of("r1k4r/8/8/8/8/8/8/4K3 w - - 0 1");
    EXPECT_LE(proof_moves_needed(Position(parse_fen("r3k2r/8/8/8/8/8/8/4K3 w q - 0 1")), c8, BLACK), 2);
    EXPECT_EQ(proof_moves_needed(Position(parse_fen("r3k2r/8/8/8/8/8/8/4K3 w - - 0 1")), c8, BLACK), 2);
}

TEST(ProofBound, PawnsChangeFilesOnlyByCapturing) {
    const Position start(parse_fen(kStart));
    // A white pawn on d3 with the e2 pawn gone: e2xd3 needs a capture, but every black unit
    // is still in the target.
    const Board no_capture = board_of("rnbqkbnr/pppppppp/8/8/8/3P4/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_FALSE(proof_captures_possible(start, no_capture, WHITE));
    // With the black pawn h7 gone from the target the capture is there.
    const Board one_capture = board_of("rnbqkbnr/ppppppp1/8/8/8/3P4/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_TRUE(proof_captures_possible(start, one_capture, WHITE));
    // A white pawn on a5 and none on the b-file: b2 -> a-file needs one capture.
    const Board a_file = board_of("rnbqkbnr/ppppppp1/8/P7/8/8/P1PPPPPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_TRUE(proof_captures_possible(start, a_file, WHITE));
    // A white queen on h8 with every white pawn on its own square: the pawns never move,
    // so the queen never leaves d1 (and no pawn promotes): out of reach.
    const Board shut = board_of("rnbqkbnQ/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1");
    EXPECT_EQ(proof_moves_needed(start, shut, WHITE), kFar);
    // With e2-e4 the queen gets out, and with the black pawn h7 gone from the target it may
    // get to h8: e2-e4, Qd1-h5, Qh5(xh7)-h8 (the king stays home: no castling saving).
    // Were h7 kept, it would be a pawn that never moves, and h8 out of reach.
    const Board open = board_of("rnbqkbnQ/ppppppp1/8/8/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 1");
    const Board closed = board_of("rnbqkbnQ/pppppppp/8/8/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0 1");
    EXPECT_EQ(proof_moves_needed(start, closed, WHITE), kFar);
    EXPECT_EQ(proof_moves_needed(start, open, WHITE), 3);
}

TEST(ProofBound, PiecesWalledInNeverMove) {
    const Position start(parse_fen(kStart));
    // b2 d2 e2 g2 stay home (pawns never return), so the bishops c1 and f1 that the target
    // keeps at home never move and are walls too; then the queen d1 has only e1 (the king,
    // which may still castle, is no wall): it never gets to a4.
    const Board q_a4 = board_of("rnbqkbnr/pppppppp/8/8/Q7/8/1PPPPPPP/RNB1KBNR b KQkq - 0 1");
    EXPECT_EQ(proof_moves_needed(start, q_a4, WHITE), kFar);
    // With the c1 bishop gone from the target (captured at home) it is no wall: the queen
    // goes d1-a1 (over c1 and b1), a1-a4: two moves.
    const Board no_bishop = board_of("rnbqkbnr/pppppppp/8/8/Q7/8/1PPPPPPP/RN2KBNR b KQkq - 0 1");
    EXPECT_EQ(proof_moves_needed(start, no_bishop, WHITE), 2);
}

TEST(ProofBound, APawnNoOtherPawnCanReplaceNeverMoves) {
    // Gruber's dia8.5 (BEISPIEL_proof_007) keeps pawns on e4, f4 and f6. After 1.e4 f6 the
    // pawn f6 stays (e7 and g7 stay home, no other black pawn gets to f6). f2-f3xe4 could
    // reach e4, but White may take nothing (Black keeps its 16 units), so the pawn e4 fills
    // e4 in every way of giving the target pawn squares their pawns: it stays too.
    const Board target = board_of("rnbqkbnr/ppppp1pp/5p2/7Q/4PP1K/7B/PPPP2PP/RNB3NR w - - 0 1");
    const Position e4_f6(parse_fen("rnbqkbnr/ppppp1pp/5p2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"));
    EXPECT_TRUE(fixed_units(e4_f6, target) & square_bb(SQ_F6));
    EXPECT_TRUE(fixed_units(e4_f6, target) & square_bb(SQ_E4));
    // After 2.f4 no white pawn can get to e4 or f4 any more.
    const Position f4(parse_fen("rnbqkbnr/ppppp1pp/5p2/8/4PP2/8/PPPP2PP/RNBQKBNR b KQkq - 0 2"));
    EXPECT_EQ(fixed_units(f4, target) & (square_bb(SQ_E4) | square_bb(SQ_F4)), square_bb(SQ_E4) | square_bb(SQ_F4));
    // With a capture to make (Black's h-pawn is gone) and the d-pawn free to leave (the
    // target has none on d2), d2-d3xe4 may fill e4 instead: after 1.e4 the pawn e4 may move.
    const Board d_gone = board_of("rnbqkbnr/ppppppp1/8/8/4P3/8/PPP2PPP/RNBQKBNR w - - 0 1");
    const Position e4(parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    EXPECT_FALSE(fixed_units(e4, d_gone) & square_bb(SQ_E4));
}

// Natch's undetermined_must_switchback (PG 11.5): a position its search meets with six moves
// left to each side, Black to play. Black needs 5: Rb8-b3, and the h-pawn to g1 as a knight
// (h4, h3, takes on g2, g1=S). So it cannot send the bishop b7 away and back (two moves
// more), and no other black bishop can fill b7 (f8's is walled in by e7 and g7): b7 is a wall
// till the end. Then the rook b8 is shut in on the eighth rank (a7 c7 d7 e7 stay home, f8 is
// fixed) and b3 needs a promoted pawn: Black needs more than it has. With a seventh black move
// the bishop may leave and come back.
TEST(ProofBound, UnitsTheBudgetsKeepOnTheirSquaresAreWalls) {
    const Board target = board_of("1N1qkbnr/pbppppp1/n7/8/8/1r4P1/1PPPPPB1/1NBQKRn1 w - - 0 1");
    const Position pos(parse_fen("1r1qkbnr/pbppppp1/npN5/7p/8/6P1/PPPPPP1P/RNBQKB1R b KQk - 0 6"));
    const Bitboard fixed = fixed_units(pos, target);
    EXPECT_FALSE(fixed & square_bb(SQ_B7));
    EXPECT_EQ(proof_moves_needed(pos, target, BLACK, fixed), 5);
    const Bitboard walls = settled_walls(pos, target, fixed, {6, 6});
    EXPECT_TRUE(walls & square_bb(SQ_B7));
    EXPECT_FALSE(walls & pos.pieces(WHITE));  // White has three moves to spare
    EXPECT_GT(proof_moves_needed(pos, target, BLACK, fixed_units(pos, target, fixed | walls)), 6);
    EXPECT_EQ(settled_walls(pos, target, fixed, {6, 7}), 0u);
    // Two knights on target squares of their walk may swap them: a knight is a wall only
    // when that costs too much as well. 1.Sg1-f3 Sg8-f6, knights on b1 and f3 for a target
    // with knights on f3 and b1: with 2 moves each left neither may leave (a swap takes 6),
    // with 6 moves White may swap them (Sb1-d2-f3... and Sf3-d2-b1: 3 + 3).
    const Board swapped = board_of("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1");
    const Position knights(parse_fen("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2"));
    const Bitboard kf = fixed_units(knights, swapped);
    EXPECT_EQ(settled_walls(knights, swapped, kf, {1, 1}) & (square_bb(SQ_B1) | square_bb(SQ_F3)),
              square_bb(SQ_B1) | square_bb(SQ_F3));
    EXPECT_FALSE(settled_walls(knights, swapped, kf, {6, 6}) & (square_bb(SQ_B1) | square_bb(SQ_F3)));
}

// Soundness on played games: along seeded random games of 4 to 14 half-moves from the game
// array (quiet moves three times in four, so the budgets are near the needs), a unit that
// settled_walls names with the moves each side still made stands on its square in every
// later position, and the needs counted with those walls stay within the moves made.
TEST(ProofBound, SettledWallsStayTillTheEndOfARandomGame) {
    std::mt19937 rng(29);
    int walls_seen = 0;
    for (int game = 0; game < 1500; ++game) {
        const std::vector<Position> line = test::random_line(Position(parse_fen(kStart)), 4 + game % 11, rng, 4);
        const Board target = line.back().to_setup().board;
        const int n = int(line.size()) - 1;
        for (int k = 0; k <= n; ++k) {
            const std::array<int, COLOR_NB> left = moves_left(k, n);
            const Bitboard fixed = fixed_units(line[k], target);
            const Bitboard walls = settled_walls(line[k], target, fixed, left);
            walls_seen += popcount(walls & ~fixed);
            for (Bitboard b = walls; b;) {
                const Square s = pop_lsb(b);
                for (int j = k + 1; j <= n; ++j)
                    ASSERT_EQ(line[j].piece_on(s), line[k].piece_on(s))
                        << "game " << game << " ply " << k << " wall " << square_name(s) << " moved by ply " << j;
            }
            const Bitboard all = fixed_units(line[k], target, fixed | walls);
            for (Color c : {WHITE, BLACK})
                ASSERT_LE(proof_moves_needed(line[k], target, c, all), left[c]) << "game " << game << " ply " << k;
        }
    }
    EXPECT_GT(walls_seen, 1000);
}

// distance.h's file cuts: no move along the file across the edge (bit q: q and the square
// above it), either way; a pawn on the edge's own side steps across it.
TEST(ProofBound, FileCutsStopMovesAlongTheFile) {
    const Bitboard h2 = square_bb(SQ_H2);  // the edge h2-h3
    EXPECT_EQ(blocked_distances_as(0, h2, ROOK, BLACK, SQ_H8, ROOK)[SQ_H3], 1);
    EXPECT_EQ(blocked_distances_as(0, h2, ROOK, BLACK, SQ_H8, ROOK)[SQ_H1], 3);  // h8-g8-g1-h1
    EXPECT_EQ(blocked_distances_as(0, h2, ROOK, BLACK, SQ_H1, ROOK)[SQ_H8], 3);
    EXPECT_EQ(blocked_distances_as(0, h2, QUEEN, BLACK, SQ_H5, QUEEN)[SQ_H1], 2);  // h5-d1-h1
    EXPECT_EQ(blocked_distances_as(0, h2, KING, BLACK, SQ_H3, KING)[SQ_H2], 2);    // h3-g2-h2 or h3-g3-h2
    EXPECT_EQ(blocked_distances_as(0, h2, KNIGHT, BLACK, SQ_G4, KNIGHT)[SQ_H2], 1);
    EXPECT_EQ(blocked_distances_as(0, h2, BISHOP, BLACK, SQ_G3, BISHOP)[SQ_H2], 1);
    // The white pawn on h2 steps across its own edge (once or twice); a black pawn on h4
    // steps to h3 but not on to h2 (with g3 walled, it cannot take its way round either).
    EXPECT_EQ(blocked_distances_as(0, h2, PAWN, WHITE, SQ_H2, PAWN)[SQ_H3], 1);
    EXPECT_EQ(blocked_distances_as(0, h2, PAWN, WHITE, SQ_H2, PAWN)[SQ_H4], 1);
    const Bitboard g3 = square_bb(SQ_G3);
    EXPECT_EQ(blocked_distances_as(g3, h2, PAWN, BLACK, SQ_H4, PAWN)[SQ_H3], 1);
    EXPECT_EQ(blocked_distances_as(g3, h2, PAWN, BLACK, SQ_H4, PAWN)[SQ_H2], kFar);
    EXPECT_EQ(blocked_distances_as(g3, 0, PAWN, BLACK, SQ_H4, PAWN)[SQ_H2], 2);
    // Two cuts on a file: a rook between them stays between them along the file.
    const Bitboard two = h2 | square_bb(SQ_H5);
    EXPECT_EQ(blocked_distances_as(0, two, ROOK, WHITE, SQ_H4, ROOK)[SQ_H3], 1);
    EXPECT_EQ(blocked_distances_as(0, two, ROOK, WHITE, SQ_H4, ROOK)[SQ_H5], 1);
    EXPECT_EQ(blocked_distances_as(0, two, ROOK, WHITE, SQ_H4, ROOK)[SQ_H6], 3);
    EXPECT_EQ(blocked_distances_as(0, two, ROOK, WHITE, SQ_H4, ROOK)[SQ_H2], 3);
}

// Which pawns must make one step across an edge. Natch's long_rook_trajectory (PG 22): White
// has one capture (Black keeps 15 units), which a2 needs for b3 (b2 and g2 stay home), so c2,
// d2, e2, f2 and h2 go straight to the third rank. Black has two: c7 takes on b6 (a7 and b7
// stay home), so f7 and h7 fill f6 and g6 with one more capture: f7-f6 and h7xg6 (h7 to f6
// would take two). d7 may go to d5 in two steps or one: not a one-step pawn.
TEST(ProofBound, FileCutsWherePawnsMustStepStraight) {
    const Position start(parse_fen(kStart));
    const Board rook = board_of("3qkbn1/pp2pbpn/1p3pp1/3p4/KB5N/1PPPPP1P/1P2NRPr/3Q4 w - - 0 1");
    EXPECT_EQ(file_cuts(start, rook, fixed_units(start, rook)), square_bb(SQ_C2) | square_bb(SQ_D2) | square_bb(SQ_E2) |
                                                                    square_bb(SQ_F2) | square_bb(SQ_H2) |
                                                                    square_bb(SQ_F6));
    // c2 to c3 with b2 gone from the target: with Black complete White takes nothing and
    // only c2 gets to c3; with a black knight gone b2xc3 may fill it instead.
    const Board none = board_of("rnbqkbnr/pppppppp/8/8/8/2P5/P2PPPPP/RNBQKBNR w - - 0 1");
    EXPECT_EQ(file_cuts(start, none, fixed_units(start, none)), square_bb(SQ_C2));
    const Board one = board_of("r1bqkbnr/pppppppp/8/8/8/2P5/P2PPPPP/RNBQKBNR w - - 0 1");
    EXPECT_EQ(file_cuts(start, one, fixed_units(start, one)), 0u);
    // After 1.c3 for the first target, the pawn c3 fills its square in every way (b2 may not
    // take): it is fixed; counted with the fixed units of the position before (as
    // MoveProgress's bounds after 1.c3 are), both edges beside it are cut.
    const Position c3(parse_fen("rnbqkbnr/pppppppp/8/8/8/2P5/PP1PPPPP/RNBQKBNR b KQkq - 0 1"));
    EXPECT_TRUE(fixed_units(c3, none) & square_bb(SQ_C3));
    EXPECT_EQ(file_cuts(c3, none, fixed_units(start, none)), square_bb(SQ_C2) | square_bb(SQ_C3));
    // No way at all (a3 needs b2 to take, and Black keeps every unit): every edge.
    const Board dead = board_of("rnbqkbnr/pppppppp/8/8/8/P7/P1PPPPPP/RNBQKBNR w - - 0 1");
    EXPECT_EQ(file_cuts(start, dead, fixed_units(start, dead)), ~Bitboard(0) >> 8);
    // The cuts raise Black's need from 13 to 17. The rook that ends on h2 reaches the first
    // two ranks by no file but the a-file (a7 b7 e7 g7 b2 g2 stay home; the c, d, e, f and h
    // pawns step across their edges; h2 is entered from h1): a8-c8-cX-aX-a1-h1-h2, or
    // h8-hX-aX-a1-h1-h2 with a8-c8-c3-b3; either way 8 rook moves. The rest: c7xb6, d7-d5,
    // f7-f6, h7xg6, Bc8-e6-f7, Sb8-d7-f6-h7: 9.
    EXPECT_EQ(proof_moves_needed(start, rook, BLACK), 17);
}

// Soundness on played games: along seeded random games of 4 to 18 half-moves from the game
// array (quiet moves three times in four), with the final board as target, a pawn stands on
// one of every file cut's two squares in every later position, so no unit moved along the
// file across it; and the needs with the cuts stay within the moves made.
TEST(ProofBound, FileCutsHoldTillTheEndOfARandomGame) {
    std::mt19937 rng(41);
    int cuts_seen = 0;
    for (int game = 0; game < 1500; ++game) {
        const std::vector<Position> line = test::random_line(Position(parse_fen(kStart)), 4 + game % 15, rng, 4);
        const Board target = line.back().to_setup().board;
        const int n = int(line.size()) - 1;
        for (int k = 0; k <= n; ++k) {
            const Bitboard cuts = file_cuts(line[k], target, fixed_units(line[k], target));
            cuts_seen += popcount(cuts);
            for (Bitboard b = cuts; b;) {
                const Square q = pop_lsb(b), above = Square(q + 8);
                for (int j = k; j <= n; ++j)
                    ASSERT_TRUE(line[j].piece_on(q).walk == PAWN || line[j].piece_on(above).walk == PAWN)
                        << "game " << game << " ply " << k << " cut " << square_name(q) << " open at ply " << j;
            }
            const std::array<int, COLOR_NB> left = moves_left(k, n);
            for (Color c : {WHITE, BLACK})
                ASSERT_LE(proof_moves_needed(line[k], target, c), left[c]) << "game " << game << " ply " << k;
        }
    }
    EXPECT_GT(cuts_seen, 1000);
}

TEST(ProofBound, OffUnderRulesAndFairyWalks) {
    rebirth::Setup s = parse_fen(kStart);
    Board target = s.board;
    target[SQ_E4] = make_piece(WHITE, GRASSHOPPER);
    EXPECT_FALSE(proof_bound_applies(Position(s), target));
}

// Soundness on played games: for seeded random games of 24 half-moves from the game array,
// with the final board as target, every position on the way needs no more moves per side
// than the game still made, and its pawns' captures are possible.
TEST(ProofBound, NeverMoreThanARandomGameMade) {
    std::mt19937 rng(5);
    int checks = 0;
    for (int game = 0; game < 300; ++game) {
        const std::vector<Position> line = test::random_line(Position(parse_fen(kStart)), 24, rng);
        const Board target = line.back().to_setup().board;
        const int n = int(line.size()) - 1;
        for (int k = 0; k <= n; ++k) {
            const std::array<int, COLOR_NB> left = moves_left(k, n);
            ASSERT_LE(proof_moves_needed(line[k], target, WHITE), left[WHITE]) << "game " << game << " ply " << k;
            ASSERT_LE(proof_moves_needed(line[k], target, BLACK), left[BLACK]) << "game " << game << " ply " << k;
            ASSERT_TRUE(proof_captures_possible(line[k], target, WHITE)) << "game " << game << " ply " << k;
            ASSERT_TRUE(proof_captures_possible(line[k], target, BLACK)) << "game " << game << " ply " << k;
            ++checks;
        }
    }
    EXPECT_GT(checks, 5000);
}

// MovesNeededCache gives proof_moves_needed's value on every position of random games (each
// asked twice, so the second answer comes from the table), with the fixed units as computed.
TEST(ProofBound, MovesNeededCacheGivesTheSameValues) {
    std::mt19937 rng(41);
    int hits = 0;
    for (int game = 0; game < 60; ++game) {
        const std::vector<Position> line = test::random_line(Position(parse_fen(kStart)), 16 + game % 12, rng);
        const Board target = line.back().to_setup().board;
        MovesNeededCache cache(target);
        for (int round = 0; round < 2; ++round)
            for (const Position& pos : line) {
                const Bitboard fixed = fixed_units(pos, target);
                for (Color c : {WHITE, BLACK}) {
                    ASSERT_EQ(cache.moves_needed(pos, c, fixed), proof_moves_needed(pos, target, c, fixed))
                        << "game " << game;
                    // With other fixed units the key differs: never the value of the first.
                    ASSERT_EQ(cache.moves_needed(pos, c, 0), proof_moves_needed(pos, target, c, 0)) << "game " << game;
                    hits += round;
                }
            }
    }
    EXPECT_GT(hits, 1000);
}

// SettledWallsCache gives settled_walls' answer on every position of random games, with the
// budgets of the game's own moves left and one and two moves fewer (tighter budgets name more
// walls), each asked twice (the second answer from the table).
TEST(ProofBound, SettledWallsCacheGivesTheSameWalls) {
    std::mt19937 rng(43);
    int hits = 0, walls = 0;
    for (int game = 0; game < 60; ++game) {
        const int plies = 12 + game % 12;
        const std::vector<Position> line = test::random_line(Position(parse_fen(kStart)), plies, rng);
        const Board target = line.back().to_setup().board;
        SettledWallsCache cache(target);
        for (int round = 0; round < 2; ++round)
            for (size_t k = 0; k < line.size(); ++k) {
                const Position& pos = line[k];
                const Bitboard fixed = fixed_units(pos, target);
                const std::array<int, COLOR_NB> needs{proof_moves_needed(pos, target, WHITE, fixed),
                                                      proof_moves_needed(pos, target, BLACK, fixed)};
                for (int less = 0; less <= 2; ++less) {
                    std::array<int, COLOR_NB> left = moves_left(int(k), int(line.size()) - 1);
                    for (int& n : left) n = std::max(0, n - less);
                    const Bitboard expected = settled_walls(pos, target, fixed, left, &needs);
                    ASSERT_EQ(cache.walls(pos, fixed, left, needs), expected) << "game " << game << " ply " << k;
                    walls += round == 0 && expected != 0;
                    hits += round;
                }
            }
    }
    EXPECT_GT(hits, 1000);
    EXPECT_GT(walls, 100);
}

// MoveProgress, worked out by hand, towards the diagram of Natch's double_en_passant (White:
// knights on d2 and g1, pawns on a2, b2, f2, g2, h2, the rest elsewhere). From the game array
// the knights need one move (b1-d2) and g1 keeps its knight; after 1.Sg1-f3 they need two
// (b1-d2 and f3-g1, or b1-c3 ... no fewer): one more. No white pawn ever comes back to a2 after
// 1.a2-a3: out of reach. A plain move of a unit off its target square that brings it nearer
// (1.d2-d4, the d-pawn's way to c6) lowers the need by at most one.
TEST(ProofBound, MoveProgressCountsTheMoverAlone) {
    const Position pos(parse_fen(kStart));
    const Board target = board_of("rn1q1bnr/4pppp/kPPp4/8/8/3BBP2/PP1N1PPP/R2QK1NR w - - 0 1");
    const Bitboard fixed = fixed_units(pos, target);
    const MoveProgress progress(pos, target, WHITE, fixed);
    const int need = proof_moves_needed(pos, target, WHITE, fixed);
    EXPECT_EQ(progress.need(), need);
    EXPECT_EQ(progress.need_after(SQ_G1, SQ_F3), need + 1);
    EXPECT_GE(progress.need_after(SQ_A2, SQ_A3), kFar);
    EXPECT_GE(progress.need_after(SQ_D2, SQ_D4), need - 1);
    EXPECT_LE(progress.need_after(SQ_D2, SQ_D4), need);
}

// Asks the distance tables (distance.h) for 1099 new wall sets (`salt` chooses which), more
// than a generation holds: the tables asked for before are dropped.
void drop_distance_tables(int salt) {
    for (int k = 1; k < 1100; ++k)
        ASSERT_NE(blocked_distances_as(Bitboard(k + 1100 * salt) << 8, KNIGHT, WHITE, SQ_A1, KNIGHT), nullptr);
}

// A search asks for many wall sets below a node while the node's MoveProgress waits: once the
// distance tables it points into are dropped (a 1025th wall set, distance.h), it still answers
// as when it was built (under the sanitizers a stale row would be a use after free).
TEST(ProofBound, MoveProgressOutlivesDroppedDistanceTables) {
    const Position pos(parse_fen(kStart));
    const Board target = board_of("rn1q1bnr/4pppp/kPPp4/8/8/3BBP2/PP1N1PPP/R2QK1NR w - - 0 1");
    const Bitboard fixed = fixed_units(pos, target);
    const MoveProgress progress(pos, target, WHITE, fixed), taken(pos, target, BLACK, fixed);
    const int g1f3 = progress.need_after(SQ_G1, SQ_F3), d2d4 = progress.need_after(SQ_D2, SQ_D4);
    const int without = taken.need_without(SQ_D7);
    const std::uint64_t generation = blocked_distances_generation();
    drop_distance_tables(0);
    ASSERT_NE(blocked_distances_generation(), generation);
    EXPECT_EQ(progress.need_after(SQ_G1, SQ_F3), g1f3);
    EXPECT_EQ(progress.need_after(SQ_D2, SQ_D4), d2d4);
    EXPECT_EQ(taken.need_without(SQ_D7), without);
    EXPECT_EQ(progress.need_after(SQ_G1, SQ_F3), proof_moves_needed(pos, target, WHITE, fixed) + 1);
}

// MoveProgressCache gives what a MoveProgress constructed on the spot gives, for every
// position of seeded random games and each side: the need, and the bounds after every plain
// move and capture. The positions are asked from separate copies (the answers read the asker's
// position), each twice so that the second comes from the cache, and between games the
// distance tables are turned over so that cached entries must be worked out again.
TEST(ProofBound, MoveProgressCacheGivesWhatAFreshOneGives) {
    std::mt19937 rng(29);
    long compared = 0;
    for (int game = 0; game < 30; ++game) {
        const std::vector<Position> line = test::random_line(Position(parse_fen(kStart)), 10 + game % 12, rng, 3);
        const Board target = line.back().to_setup().board;
        MoveProgressCache cache(target);
        for (int round = 0; round < 2; ++round) {
            for (const Position& at : line) {
                const Position pos = at;  // a copy: the cached entry must read this one
                const Bitboard fixed = fixed_units(pos, target);
                for (Color c : {WHITE, BLACK}) {
                    const MoveProgress fresh(pos, target, c, fixed);
                    const MoveProgress cached = cache.get(pos, c, fixed);
                    ASSERT_EQ(cached.need(), fresh.need()) << "game " << game;
                    if (c != pos.side_to_move()) continue;
                    MoveList list;
                    generate_legal(pos, list);
                    const MoveProgress taken = cache.get(pos, ~c, fixed);
                    const MoveProgress taken_fresh(pos, target, ~c, fixed);
                    for (const Move& m : list) {
                        if (m.kind != MoveKind::Normal || (fixed & square_bb(m.from))) continue;
                        const bool capture = !pos.empty(m.to);
                        ASSERT_EQ(cached.need_after(m.from, m.to, !capture), fresh.need_after(m.from, m.to, !capture));
                        ASSERT_EQ(cached.need_after_exact(m.from, m.to, !capture),
                                  fresh.need_after_exact(m.from, m.to, !capture));
                        if (capture && !(fixed & square_bb(m.to))) {
                            ASSERT_EQ(taken.need_without_exact(m.to), taken_fresh.need_without_exact(m.to));
                        }
                        ++compared;
                    }
                }
            }
        }
        drop_distance_tables(game % 2);
    }
    EXPECT_GT(compared, 5000);
}

// Soundness of MoveProgress on played games: from every position of seeded random games (the
// final board as target), for every plain move of the side to move (no capture, promotion,
// castling or en passant), the bound after the move is at most proof_moves_needed of the
// position after it, counted with the same fixed units (also after a capture), and for every
// capture the other side's bound without the unit taken is at most its need after; the exact
// counts (need_after_exact, need_without_exact) lie between those bounds and the needs after,
// equal to the need after for almost every plain move of a piece or pawn; and the bounds say
// more than "no verdict" on many moves (so that the test can fail).
TEST(ProofBound, MoveProgressNeverAboveTheNeedAfter) {
    std::mt19937 rng(23);
    long checks = 0, raised = 0, captures = 0, plain = 0, equal = 0, sharper = 0;
    for (int game = 0; game < 80; ++game) {
        const std::vector<Position> line = test::random_line(Position(parse_fen(kStart)), 12 + game % 16, rng, 3);
        const Board target = line.back().to_setup().board;
        for (const Position& at : line) {
            Position pos = at;
            const Color c = pos.side_to_move();
            const Bitboard fixed = fixed_units(pos, target);
            const MoveProgress progress(pos, target, c, fixed), taken(pos, target, ~c, fixed);
            ASSERT_EQ(progress.need(), proof_moves_needed(pos, target, c, fixed)) << "game " << game;
            MoveList list;
            generate_legal(pos, list);
            for (const Move& m : list) {
                if (m.kind != MoveKind::Normal || (fixed & square_bb(m.to))) continue;
                const bool capture = !pos.empty(m.to);
                // The capture rows stay unless a pawn is taken (the mover's) or takes (the
                // other side's).
                const bool stays = !capture || pos.piece_on(m.to).walk != PAWN;
                const bool kept = pos.piece_on(m.from).walk != PAWN;
                const int bound = progress.need_after(m.from, m.to, stays);
                const int without = capture ? taken.need_without(m.to, kept) : 0;
                const int exact = progress.need_after_exact(m.from, m.to, stays);
                const int exact_without = capture ? taken.need_without_exact(m.to, kept) : 0;
                UndoInfo u;
                pos.do_move(m, u);
                const int after = proof_moves_needed(pos, target, c, fixed);
                const int other_after = proof_moves_needed(pos, target, ~c, fixed);
                pos.undo_move(m, u);
                ASSERT_LE(bound, after) << "game " << game << (capture ? ", a capture" : "") << " "
                                        << to_fen(pos.to_setup()) << " " << square_name(m.from) << square_name(m.to)
                                        << " target " << to_fen(line.back().to_setup());
                ASSERT_LE(without, other_after) << "game " << game;
                // The exact counts lie between the dual bounds and the needs after the move,
                // and are the needs themselves after a move of a unit that is not a rook
                // (which may lose a castling right) when nothing is taken.
                ASSERT_LE(bound, exact) << "game " << game;
                ASSERT_LE(exact, after) << "game " << game << " " << to_fen(pos.to_setup()) << " "
                                        << square_name(m.from) << square_name(m.to);
                ASSERT_LE(without, exact_without) << "game " << game;
                ASSERT_LE(exact_without, other_after) << "game " << game;
                if (!capture && pos.piece_on(m.from).walk != ROOK) {
                    ++plain;
                    if (exact == after) ++equal;
                }
                if (exact > bound || exact_without > without) ++sharper;
                ++checks;
                if (capture) ++captures;
                if (bound > progress.need() || without > taken.need()) ++raised;
            }
        }
    }
    EXPECT_GT(checks, 20000);
    EXPECT_GT(captures, 500);
    EXPECT_GT(raised, checks / 10);
    std::printf("%ld checks, %ld plain moves (%ld exact), %ld sharper\n", checks, plain, equal, sharper);
    EXPECT_GT(sharper, checks / 20);
    EXPECT_GT(equal, plain * 95 / 100);  // the rest: a pawn's move adds file cuts
}

}  // namespace
}  // namespace rebirth
