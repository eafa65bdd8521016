#pragma once

#include <array>
#include <string>

#include "rebirth/types.h"

namespace rebirth {

// The analyzer's answer. `illegal` is a proof that no orthodox game from the initial position
// reaches the diagram; false means "not proved illegal", never "legal". `reason` names the
// first rule that failed, e.g. "white pawn on h1"; it is empty when nothing was proved.
struct LegalityVerdict {
    bool illegal = false;
    std::string reason;
};

// Marks a retro problem sets on some units (Retractor's cages, janko.at's "the unit never
// moved"): `frozen` squares hold units that stood there all game (so on a game-array square of
// their walk and colour), `promoted` squares units that came from a promotion, `promoted_here`
// units whose last move was their promotion on the square they stand on (on their side's last
// rank; retro_cage.h's promoted_on_its_square proves it), `taken_home` game-array squares of
// queens, rooks, bishops and knights whose unit never moved and was taken there by a piece
// (retro_order.h's order_facts proves it), and `promoted_unit` a unit that came from a
// promotion on one of the squares of `promoted_on` (at any time, not only by its last move;
// retro_cage.cpp asks it of units whose promotion its search takes back). The diagram is
// judged with the marks as claims, like castling rights.
struct LegalityMarks {
    Bitboard frozen = 0;
    Bitboard promoted = 0;
    Bitboard promoted_here = 0;
    Bitboard taken_home = 0;
    Square promoted_unit = SQ_NONE;
    Bitboard promoted_on = 0;
    bool empty() const { return !frozen && !promoted && !promoted_here && !taken_home && promoted_unit == SQ_NONE; }
    // The squares of the units marked promoted, one way or another.
    Bitboard all_promoted() const {
        return promoted | promoted_here | (promoted_unit == SQ_NONE ? 0 : square_bb(promoted_unit));
    }
};

// Static orthodox legality analysis of a diagram (RULES.md section 5, Alsatian Circe; later
// reused by retro analysis). Only sound rules: each says illegal only when no legal game can
// reach the position with `side_to_move` to move, the castling rights `castling_rights`
// (squares e1 a1 h1 e8 a8 h8 whose king or rook never moved; other bits are ignored) and
// `ep_square` (the square skipped by the last move's double step, or SQ_NONE = unknown).
// Rights are taken as a claim that those units never moved (they become walls below); Popeye
// grants rights by convention and Circe rebirths restore them, so a caller judging only the
// board passes 0 (the default).
// Rules, in the order they are tried:
//  - kings: exactly one per side (a kingless diagram is reported illegal);
//  - pawns on the first or last rank;
//  - material: at most 16 units and 8 pawns per side;
//  - castling rights need the king / rook on its game-array square;
//  - the en passant square needs a possible double step of the side that just moved;
//  - the side not to move is not in check (fairy units included);
//  - the checks on the side to move come from one possible last move: at most two checkers,
//    each double check produced by one move (direct + discovered, promotion, en passant),
//    each check by a unit that could have moved there, and not from a square where it
//    already gave that check (skipped when fairy units stand);
//  - units reach their squares: pawns on their own second rank never moved and are
//    permanent walls (so are castling kings/rooks, and, to a fixed point, each K Q R B S on
//    its game-array square whose every step out is a wall); each K Q R B S is an original
//    unit that can walk from its game-array square past the walls, or a promoted unit
//    walking from a reachable promotion square; fairy units are promoted units; no unit
//    ever stepped between a pawn on its third rank and the one square it can have come
//    from (the other squares are walls): that pawn held one of the two all game (nor did a
//    pawn of the other side take across them);
//  - promoted units needed <= missing pawns;
//  - pawns and promoted units are traced to distinct starting pawns; the captures this
//    needs must not exceed the number of missing opposing units that a pawn can have taken
//    (not the original pieces gone whose every way from their game-array square misses the
//    squares where the counted pawns took, such as those shut in on that square, which a
//    piece took there). A pawn's
//    captures are counted along its ways past the walls, one per file change; a promoted
//    unit comes from a promotion square from which it can reach its square (a bishop's of
//    its colour; a unit that no game-array square of its walk reaches was promoted, from a
//    square from which it can have come itself); pawns of the two sides never pass each other on a file, so a pawn
//    beyond an opposing pawn that never left its file (no capture can have led onto it) came onto that file by a
//    capture, and of a white and a black pawn that stand passed on a file one came onto it by a capture (both sides'
//    counts judged together; a promoted unit's pawn stood on the file it went down to its seventh rank);
//  - where a side's pawns need every capture left them, its gone pawns made none and were taken
//    on their files (by pieces where no pawn of the other side takes there, its captures then
//    counted again; on the one square a pawn of the other side can have taken, where it stands
//    now, a square held all game);
//  - a pawn whose only possible home is as many files away as the ranks it advanced took on
//    each square of the diagonal between: where the other side promoted nothing (none of its
//    gone pawns can have reached its last rank with its pawns' captures, less one per bishop
//    taken at home: bishops_taken_at_home), each of those captures took a distinct
//    original piece gone that can have stood there, or a gone pawn whose file the other
//    side's captures can have brought there;
//  - a unit came last to its square through a square that is not a wall; that square is
//    shut when its unit came from there and stayed (a pawn that can only have come from
//    it, a unit that cannot move off and can only have been promoted from it);
//  - each king walked from its game-array square by king steps that never enter a wall nor
//    a square a wall of the other side attacks, nor the square of an opposing pawn that took
//    onto its third rank from its home square;
//  - on a first rank shut in by walls, kings, queens, rooks and bishops keep the game
//    array's order (units taken apart), but for one castling;
//  - last, where all the above pass: a piece on its side's last rank whose every entry holds
//    an opposing pawn come there from its second rank came by promotion if a promotion onto
//    that square, left by the promoted unit, needed those pawns gone from their squares first;
//    so for up to four such squares each choice is tried (the piece marked promoted there, or
//    the units standing elsewhere promoted there from the other squares only): illegal when
//    every choice is.
//  With marks: a frozen unit stands on a game-array square of its walk and colour and is a
//  wall; a promoted one is no king, pawn or frozen unit, and is not an original unit (the
//  promoted_unit one came from a promotion on a square of promoted_on only); a
//  game-array square taken there lost its unit to a piece (gone, out of the pawns' reach).
// Allocation-free unless a violation is found (the reason string, also in a choice above).
LegalityVerdict analyze_orthodox_legality(const std::array<Piece, SQUARE_NB>& board, Color side_to_move,
                                          Bitboard castling_rights = 0, Square ep_square = SQ_NONE,
                                          const LegalityMarks& marks = {});

// The game-array squares of bishops shut in there by their side's unmoved pawns (on both
// squares diagonally in front) that are gone: each was taken there, by a piece of the other
// side (a pawn would have taken from a square those pawns held all game). Orthodox.
Bitboard bishops_taken_at_home(const std::array<Piece, SQUARE_NB>& board);

// Whether the orthodox position proves that side o never promoted: in every assignment of
// o's moved pawns to distinct homes, none of o's gone pawns can have reached its last rank
// with the captures o's pawns have left (o's captures less one per bishop of the other side
// taken at home: bishops_taken_at_home; as forced_captures_rule counts them: straight past the walls
// and the homes of the other side's pawns that came straight down their files, taking only
// where a lost unit of the other side can have stood). False proves nothing.
bool promoted_nothing(const std::array<Piece, SQUARE_NB>& board, Color o);

// A corridor of a side's first rank: the files [first, end) of a run of squares between walls
// (or the board's edges) whose squares in front and diagonally in front are all walls. No
// unit but a knight gets in or out (no pawn onto that rank there), and inside, kings, queens,
// rooks and bishops move only along the rank and never pass one another, except the side's
// king and a rook by castling.
struct Corridor {
    int first = 0, end = 0;
};

// The corridors of c's first rank shut in by `walls`, left to right (at most four); their
// count.
int first_rank_corridors(Color c, Bitboard walls, std::array<Corridor, 4>& out);

// Whether the kings, queens, rooks and bishops of corridor `run` (knights apart, colour and
// walk, left to right) in `to` can be those of `from` with some left out (taken), after at
// most one castling exchange of c's king on the e-file and a rook on a corner of `sides`
// (bit 0 the queen's side, bit 1 the king's; the units between the two left out first).
// `from` and `to` are the rank's eight squares, file a first.
bool corridor_order_kept(const std::array<Piece, 8>& from, const std::array<Piece, 8>& to, Corridor run,
                         unsigned sides);

}  // namespace rebirth
