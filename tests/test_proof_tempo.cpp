// The tempo (parity) bound of proof games (proof_tempo.h): distances by parity worked out by
// hand, the seven wasted tempi of Gruber's dia8.5 (BEISPIEL/proof.inp), and random games
// (never refused for the number of moves the game made).

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "rebirth/distance.h"
#include "rebirth/movegen.h"
#include "rebirth/proof_tempo.h"
#include "rebirth/setup.h"
#include "test_util.h"

namespace rebirth {
namespace {

using test::board_of;
const char* const kStart = test::kGameArray;

TEST(ProofTempo, DistancesByParity) {
    // A king back on e1 in an odd number of moves: a triangle, e1-d1-d2-e1.
    EXPECT_EQ(parity_distances(0, KING, SQ_E1)[1][SQ_E1], 3);
    EXPECT_EQ(parity_distances(0, KING, SQ_E1)[0][SQ_E1], 0);
    EXPECT_EQ(parity_distances(0, KING, SQ_E1)[0][SQ_E3], 2);
    EXPECT_EQ(parity_distances(0, KING, SQ_E1)[1][SQ_E3], 3);
    // A knight changes its square's colour with each move: g1-f3 only in odd numbers.
    EXPECT_EQ(parity_distances(0, KNIGHT, SQ_G1)[1][SQ_F3], 1);
    EXPECT_EQ(parity_distances(0, KNIGHT, SQ_G1)[0][SQ_F3], kFar);
    EXPECT_EQ(parity_distances(0, KNIGHT, SQ_G1)[0][SQ_G1], 0);
    // A rook returns in three along its file (a1-a5-a3-a1); walled in on a1-a2, never.
    EXPECT_EQ(parity_distances(0, ROOK, SQ_A1)[1][SQ_A1], 3);
    const Bitboard corridor = square_bb(SQ_B1) | square_bb(SQ_B2) | square_bb(SQ_A3);
    EXPECT_EQ(parity_distances(corridor, ROOK, SQ_A1)[1][SQ_A1], kFar);
    EXPECT_EQ(parity_distances(corridor, ROOK, SQ_A1)[1][SQ_A2], 1);
    EXPECT_EQ(parity_distances(corridor, ROOK, SQ_A1)[0][SQ_A2], kFar);
    // A bishop: a1-c3-b2-a1.
    EXPECT_EQ(parity_distances(0, BISHOP, SQ_A1)[1][SQ_A1], 3);
}

TEST(ProofTempo, KnightParityFromTheGameArray) {
    const Position start(parse_fen(kStart));
    // Sg1-f3 alone: one move, or three (Sb1-a3-b1 besides); never two, since the knights'
    // moves are odd in sum and nothing else of White can move and come back an odd way
    // (castling is impossible: Bc1 and Bf1 can never move).
    const Board nf3 = board_of("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
    EXPECT_TRUE(proof_tempo_possible(start, nf3, WHITE, 1));
    EXPECT_FALSE(proof_tempo_possible(start, nf3, WHITE, 2));
    EXPECT_TRUE(proof_tempo_possible(start, nf3, WHITE, 3));
    EXPECT_FALSE(proof_tempo_possible(start, nf3, WHITE, 4));
    // Black has nothing to do and no way to waste an odd number of moves.
    EXPECT_TRUE(proof_tempo_possible(start, nf3, BLACK, 0));
    EXPECT_FALSE(proof_tempo_possible(start, nf3, BLACK, 1));
    EXPECT_TRUE(proof_tempo_possible(start, nf3, BLACK, 2));
}

TEST(ProofTempo, GruberWastesSevenTempiWithTheKing) {
    // Gruber, Problemkiste 1983, dia8.5 (BEISPIEL_proof_007): Black plays f7-f6 and must waste
    // seven moves. Knights waste in pairs; an odd number takes a unit walking an odd way home:
    // the king's Ke8-f7-e6-d5-d6-e6-f7-e8 (Popeye's solution), or, on the board of the units
    // that never move (the others may step aside), the queen's Qd8-e8-f7-g6-e8-d8, five. So
    // an odd number of moves left needs at least five.
    const Board target = board_of("rnbqkbnr/ppppp1pp/5p2/7Q/4PP1K/7B/PPPP2PP/RNB3NR w - - 0 1");
    const Position after_f6(parse_fen("rnbqkbnr/ppppp1pp/5p2/8/5P2/8/PPPPPKPP/RNBQ1BNR b kq - 1 2"));
    EXPECT_TRUE(proof_tempo_possible(after_f6, target, BLACK, 7));
    EXPECT_TRUE(proof_tempo_possible(after_f6, target, BLACK, 5));
    EXPECT_TRUE(proof_tempo_possible(after_f6, target, BLACK, 2));  // Ke8-f7-e8
    EXPECT_FALSE(proof_tempo_possible(after_f6, target, BLACK, 3));
    EXPECT_FALSE(proof_tempo_possible(after_f6, target, BLACK, 1));
    // With a knight out (Sg8-h6): its way back is odd, so an even number of moves left needs
    // an odd walk besides, 1 + 5.
    const Position knight_out(parse_fen("rnbqkb1r/ppppp1pp/5p1n/8/5P2/8/PPPPPKPP/RNBQ1BNR w kq - 2 3"));
    EXPECT_FALSE(proof_tempo_possible(knight_out, target, BLACK, 4));
    EXPECT_FALSE(proof_tempo_possible(knight_out, target, BLACK, 2));
    EXPECT_TRUE(proof_tempo_possible(knight_out, target, BLACK, 6));
    EXPECT_TRUE(proof_tempo_possible(knight_out, target, BLACK, 3));
}

TEST(ProofTempo, NoVerdictWhereUnitsAreStillTakenOrCanCastle) {
    const Position start(parse_fen(kStart));
    // A black pawn fewer in the target: a capture is still to come, so no verdict.
    const Board taken = board_of("rnbqkbnr/ppp1pppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
    EXPECT_TRUE(proof_tempo_possible(start, taken, BLACK, 1));
    // Black may still castle short once Bf8 and Sg8 are out of the way: no verdict.
    const Board open = board_of("rnbqk2r/ppppbppp/5n2/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    EXPECT_TRUE(proof_tempo_possible(start, open, BLACK, 4));
}

// Soundness on played games: seeded random games of 20 half-moves from the game array, most
// moves quiet so that captures end early; from every position of the game, each side can
// make the moves the game still made it make.
TEST(ProofTempo, NeverRefusesARandomGame) {
    std::mt19937 rng(11);
    int checks = 0, refused_other_parity = 0;
    for (int game = 0; game < 400; ++game) {
        const std::vector<Position> line = test::random_line(Position(parse_fen(kStart)), 20, rng, 10);
        const Board target = line.back().to_setup().board;
        const int n = int(line.size()) - 1;
        for (int k = 0; k <= n; ++k) {
            int white = 0, black = 0;
            for (int i = k; i < n; ++i) (i % 2 == 0 ? white : black)++;
            ASSERT_TRUE(proof_tempo_possible(line[k], target, WHITE, white)) << "game " << game << " ply " << k;
            ASSERT_TRUE(proof_tempo_possible(line[k], target, BLACK, black)) << "game " << game << " ply " << k;
            refused_other_parity += !proof_tempo_possible(line[k], target, WHITE, white + 1);
            refused_other_parity += !proof_tempo_possible(line[k], target, BLACK, black + 1);
            ++checks;
        }
    }
    EXPECT_GT(checks, 8000);
    // The bound does refuse: one move more than the game made is often the wrong parity.
    EXPECT_GT(refused_other_parity, 500);
}

}  // namespace
}  // namespace rebirth
