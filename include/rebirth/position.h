#pragma once

#include <array>
#include <string>

#include "rebirth/bitboard.h"
#include "rebirth/move.h"
#include "rebirth/setup.h"
#include "rebirth/types.h"

namespace rebirth {

struct RuleSet;

// A unit below a square: buried (Volcanic) or lifted (Parachute), waiting for the square
// to empty.
struct Buried {
    Square square = SQ_NONE;
    Piece piece{};
    friend bool operator==(const Buried&, const Buried&) = default;
};
inline constexpr int MAX_BURIED = 32;

// A visible side effect of a move under a Circe rule, in the order it happened; the notation
// prints them in brackets after the move.
struct Effect {
    enum class Kind : std::uint8_t {
        Rebirth,   // [+bBc8], with promotion [+wPc8=S]: `piece` is the unit as reborn, `walk_before` its walk before
        Transfer,  // Anti-Circe capturer to its rebirth square: [wQd5->d1]
        Removal,   // a unit leaves the board: [-wQd1]
        Burial,    // Volcanic: [+bPd7->v]; Anti-Circe Volcanic: [wPe6->e2->v]
        Eruption,  // a buried unit reappears: [+bPd7]
        Lift,      // Parachute: the occupant is lifted
        Landing,   // Parachute: a lifted unit lands
    };
    Kind kind = Kind::Rebirth;
    Square from = SQ_NONE;  // Transfer/Burial(anti): square left; Removal/Lift: square
    Square to = SQ_NONE;    // Rebirth/Transfer/Burial/Eruption/Landing: square reached
    Piece piece{};
    Walk walk_before = NO_WALK;  // a reborn pawn that promotes on rebirth: PAWN
    bool silent = false;         // Popeye does not print it (assassinated or lifted occupant)
    bool turned = false;         // Rebirth/Transfer: the unit changed side there (Turncoats): [+bRh8=w]
};

// A fixed-capacity array left uninitialised (per-ply records are built on every move; only
// the entries a move writes are ever read).
template <typename T, int N>
struct RawArray {
    RawArray() {}
    union {
        T data[N];
    };
    T& operator[](int i) { return data[i]; }
    const T& operator[](int i) const { return data[i]; }
    static constexpr int size() { return N; }
};

// What do_move changes and undo_move restores: a small per-ply record. Moves under Circe
// rules also log each square they change (undone in reverse) and their visible effects.
struct UndoInfo {
    Move move{};  // the move played (goals that look at it: en passant, castling, target square)
    Key key = 0;
    Bitboard castling = 0;
    Square ep_square = SQ_NONE;
    Square capture_square = SQ_NONE;
    Piece captured{};
    Piece moved{};  // the mover as it stood before the move (undoes promotions)
    int halfmove_clock = 0;

    struct Change {
        Square square;
        Piece before;
        Square origin_before;
    };
    RawArray<Change, 40> changes;
    int change_count = 0;
    RawArray<Effect, 16> effects;
    int effect_count = 0;
    // Rule state before the move (restored by undo).
    Piece parrain_piece{};
    Square parrain_square = SQ_NONE;
    int buried_count = 0;
    RawArray<Buried, MAX_BURIED> buried;  // the first buried_count entries, when buried_saved
    bool buried_saved = false;
};

// How strictly Position::set checks a diagram, and which rules apply.
struct SetupRules {
    bool require_white_king = true;  // false with Popeye's Option NoWk
    bool require_black_king = true;  // false with Option NoBk
    // The condition's rules; null (or orthodox rules) = orthodox chess. Must outlive the
    // position and its copies.
    const RuleSet* rules = nullptr;
};

// A playable position: mailbox plus bitboards by colour and walk, side to move, castling
// rights per king/rook square, en passant, ply and an incremental Zobrist key covering
// everything that affects legal moves. Copyable; threads each use their own copy.
class Position {
  public:
    Position();
    explicit Position(const Setup& setup, const SetupRules& rules = {}, const std::string& source = "<position>");

    // Loads a diagram and checks it (king counts, side not to move in check, castling and en
    // passant fields that contradict the board). Throws InputError naming `source`.
    void set(const Setup& setup, const SetupRules& rules = {}, const std::string& source = "<position>");
    // set() that returns false instead of throwing when the side not to move is in check (the
    // position is loaded all the same); the other errors still throw.
    bool load(const Setup& setup, const SetupRules& rules = {}, const std::string& source = "<position>");
    Setup to_setup() const;

    Piece piece_on(Square s) const { return board_[s]; }
    bool empty(Square s) const { return board_[s].empty(); }
    Bitboard pieces() const { return by_color_[WHITE] | by_color_[BLACK]; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(Walk w) const { return by_walk_[w]; }
    Bitboard pieces(Color c, Walk w) const { return by_color_[c] & by_walk_[w]; }
    // The king square of c, or SQ_NONE in a kingless problem.
    Square king_square(Color c) const { return king_sq_[c]; }
    Color side_to_move() const { return side_; }
    Bitboard castling_rights() const { return castling_; }
    // The castlings colour c keeps the right to: bit 0 the queen's side, bit 1 the king's (its
    // king's home square and that rook's both keep their right).
    unsigned castling_sides(Color c) const;
    Square ep_square() const { return ep_square_; }
    Key key() const { return key_; }
    int ply() const { return ply_; }
    int halfmove_clock() const { return halfmove_clock_; }
    // Fairy walks stand on the board (or may appear by promotion): the generic generator runs.
    bool has_fairy() const { return fairy_; }
    // Walks a pawn may promote to: Q R B S and every fairy walk of the diagram.
    const std::array<Walk, WALK_NB>& promotion_walks() const { return promo_walks_; }
    int promotion_walk_count() const { return promo_count_; }

    // The rules in force (null in orthodox chess) and whether they change anything.
    const RuleSet* rules() const { return rules_; }
    bool has_rules() const { return circe_; }
    // Square the unit on s stood on in the diagram (SQ_NONE for units born later).
    Square origin(Square s) const { return origin_[s]; }
    // Units buried (Volcanic) or lifted (Parachute), in the order they went there.
    int buried_count() const { return buried_count_; }
    const Buried& buried(int i) const { return buried_[i]; }
    // Circe Parrain: the unit captured by the last move, waiting for its rebirth.
    Piece parrain_piece() const { return parrain_piece_; }
    Square parrain_square() const { return parrain_square_; }

    // Units of colour `by` that attack square s (orthodox and fairy walks alike).
    Bitboard attackers_to(Square s, Color by) const;
    Bitboard attackers_to(Square s, Color by, Bitboard occupied) const;
    bool attacked(Square s, Color by) const { return attackers_to(s, by) != 0; }
    // c's king is attacked (false when c has no king).
    // Units of colour c that alone stand between c's king and an enemy rook, bishop or queen
    // line (orthodox pins); 0 when c has no king.
    Bitboard pinned(Color c) const;

    // c's king can be captured by the opponent under the rules in force (orthodox: attacked);
    // false when c has no king.
    bool in_check(Color c) const;
    bool in_check() const { return in_check(side_); }

    void do_move(const Move& m, UndoInfo& undo);
    void undo_move(const Move& m, const UndoInfo& undo);
    // A move under the rules in force; false (with the position unchanged) when the rules
    // forbid it outright (e.g. Strict Circe on an occupied rebirth square). Self-check is
    // not tested here.
    bool do_rules_move(const Move& m, UndoInfo& undo);

    // An exact (collision-free) encoding of everything that decides the legal play from here:
    // side to move, castling, en passant, rule state and every unit with its diagram square.
    // Transposition tables key on it (the Zobrist key may collide).
    std::string exact_key() const;
    // exact_key() written into `out` (its storage reused: no allocation once it is large enough).
    void exact_key(std::string& out) const;

    // Hands the move to colour c without a move (analysis only: double-stalemate goals,
    // set play); clears the en passant right.
    void set_side_to_move_for_analysis(Color c);

    // Puts unit p on s (the empty piece: empties s), the key following, for analysis of
    // constructed positions without rules (target pictures): nothing else changes, so the
    // caller keeps the position sound (one king a side at most, castling rights and the en
    // passant square still fitting).
    void put_for_analysis(Square s, Piece p);

    // Full consistency check of the redundant state (bitboards vs mailbox, king squares, key).
    // Returns false and fills *why on the first inconsistency. Runs after every do/undo in
    // builds with REBIRTH_CHECKED (debug builds) and in the tests.
    bool is_consistent(std::string* why = nullptr) const;
    // The key recomputed from scratch.
    Key compute_key() const;

  private:
    friend class RulesMover;
    bool rules_in_check(Color c) const;
    void undo_rules_move(const Move& m, const UndoInfo& undo);
    // The last step of every undo: state fields back from the record, then (checked builds)
    // the consistency check, naming `caller` on failure.
    void restore_state(const UndoInfo& u, const char* caller);
    // Rules path primitives: change one square (logged in u, key updated).
    void set_square(Square s, Piece p, Square origin, UndoInfo& u);
    void clear();
    void put_piece(Piece p, Square s);
    void remove_piece(Square s);
    void move_piece(Square from, Square to);
    void compute_derived();

    std::array<Piece, SQUARE_NB> board_{};
    std::array<Bitboard, COLOR_NB> by_color_{};
    std::array<Bitboard, WALK_NB> by_walk_{};
    std::array<Square, COLOR_NB> king_sq_{SQ_NONE, SQ_NONE};
    std::array<Walk, WALK_NB> promo_walks_{};
    int promo_count_ = 0;
    Color side_ = WHITE;
    Bitboard castling_ = 0;
    Square ep_square_ = SQ_NONE;
    Key key_ = 0;
    int ply_ = 0;
    int halfmove_clock_ = 0;
    int fullmove_start_ = 1;
    bool fairy_ = false;
    bool circe_ = false;
    // Pawns on their own first rank attack (rules where they move from there: Cage, Parrain).
    bool first_rank_pawns_attack_ = false;
    const RuleSet* rules_ = nullptr;
    std::array<Square, SQUARE_NB> origin_{};
    std::array<Buried, MAX_BURIED> buried_{};
    int buried_count_ = 0;
    Piece parrain_piece_{};
    Square parrain_square_ = SQ_NONE;
};

namespace zobrist {
Key piece_key(Piece p, Square s);
Key castling_key(Square s);
Key ep_key(Square s);
Key side_key();
Key buried_key(Piece p, Square s);
Key parrain_key(Piece p, Square s);
Key origin_key(Square origin, Square s);
}  // namespace zobrist

}  // namespace rebirth
