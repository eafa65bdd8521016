// Standard algebraic notation (move_to_san, PGN's SAN): piece letters, disambiguation by file,
// rank or square, captures, en passant, promotion, castling, check and mate. The expected
// strings are SAN as the PGN standard (section 8.2.3) defines it, worked out by hand.

#include <gtest/gtest.h>

#include <string>

#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/setup.h"
#include "test_util.h"

namespace rebirth {
namespace {

// The SAN of the legal move from `from` to `to` (promotion `promo` when given) in `fen`.
std::string san(const char* fen, Square from, Square to, Walk promo = NO_WALK) {
    const Position pos(parse_fen(fen));
    MoveList list;
    generate_legal(pos, list);
    for (const Move& m : list)
        if (m.from == from && m.to == to && (promo == NO_WALK || m.promotion == promo)) return move_to_san(pos, m);
    return "(no such move)";
}

TEST(San, PiecesPawnsAndCastling) {
    EXPECT_EQ(san(test::kGameArray, SQ_G1, SQ_F3), "Nf3");
    EXPECT_EQ(san(test::kGameArray, SQ_E2, SQ_E4), "e4");
    EXPECT_EQ(san("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", SQ_E4, SQ_D5), "exd5");
    EXPECT_EQ(san("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", SQ_E5, SQ_F6), "exf6");
    EXPECT_EQ(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", SQ_E1, SQ_G1), "O-O");
    EXPECT_EQ(san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", SQ_E8, SQ_C8), "O-O-O");
}

TEST(San, Disambiguation) {
    // Knights on b1 and f3 both reach d2: by file.
    EXPECT_EQ(san("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", SQ_B1, SQ_D2), "Nbd2");
    // Rooks on a1 and a5 both reach a3: by rank.
    EXPECT_EQ(san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", SQ_A5, SQ_A3), "R5a3");
    // Queens on h4, e4 and h1 all reach e1... here h4 shares the file with h1 and the rank with
    // e4: by square.
    EXPECT_EQ(san("8/8/1k6/8/4Q2Q/8/8/K6Q w - - 0 1", SQ_H4, SQ_E1), "Qh4e1");
    // A lone knight: no disambiguation.
    EXPECT_EQ(san("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", SQ_B1, SQ_C3), "Nc3");
}

TEST(San, PromotionCheckAndMate) {
    EXPECT_EQ(san("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", SQ_E7, SQ_E8, QUEEN), "e8=Q+");
    EXPECT_EQ(san("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", SQ_E7, SQ_E8, KNIGHT), "e8=N");
    // Scholar's mate.
    EXPECT_EQ(san("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 4", SQ_H5, SQ_F7), "Qxf7#");
}

}  // namespace
}  // namespace rebirth
