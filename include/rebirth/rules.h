#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "rebirth/problem.h"
#include "rebirth/types.h"

namespace rebirth {

// One value per rule axis of RULES.md section 4. Traditional names (CirceAssassin, PWC,
// MarsCirce, ...) resolve to a combination of these values.

// Which unit is reborn after a capture.
enum class Reborn : std::uint8_t { None, Captured, Capturer, Both };

// Where the reborn unit goes (before adapters).
enum class SquareRule : std::uint8_t {
    Classic,             // RULES.md section 3
    File,                // the walk's home square on the capture file (pawn: 2nd rank; fairy: promotion rank)
    Symmetry,            // point symmetry through the centre (c4 <-> f5)
    VerticalSymmetry,    // mirrored across the d/e line, same rank
    HorizontalSymmetry,  // mirrored across the 4th/5th rank line, same file
    Diagram,             // the unit's square in the diagram
    PWC,                 // the capturer's departure square
    Antipodes,           // 4 files and 4 ranks away
    Equipollents,        // capture square + capturing move's vector
    Parrain,             // capture square + next move's vector (delayed)
    ContraParrain,       // capture square - next move's vector (delayed)
    Couscous,            // the capturer's classic square (captured unit keeps its walk)
    Super,               // any empty square, the mover's choice
    TakeMake,            // the captured unit makes a non-capturing move of its walk from the capture square
    Cage,                // Super restricted to squares where the reborn unit cannot capture
    Diametral,           // classic square, then point-reflected (file and rank mirrored)
    Rank,                // the walk's home file on the capture rank
    CaptureSquare,       // the capture square itself (with WaitCapture: the earlier capture's square)
};

// What happens when the rebirth square is occupied.
enum class Occupied : std::uint8_t {
    Relaxed,    // the reborn unit is lost
    Strict,     // the capture is illegal
    Assassin,   // the occupant is removed
    Volcanic,   // the reborn unit is buried under the occupant, erupts when it leaves
    Parachute,  // the occupant is lifted, lands when the square empties
    Ultra,      // assassin, and the removed unit is itself reborn (chain)
};

// How check is defined for the kings. Defaults per family (Popeye 4.104, RULES.md sections
// 4-5): Circe Exclusive; AntiCirce, MarsCirce and AntiMarsCirce Inclusive (kings take part).
enum class Rex : std::uint8_t { Exclusive, Inclusive };

// The rebirth rules of one family word. Used for the capturer's rebirth when Circe and
// AntiCirce are given together (reborn == Both); the fields of RuleSet with the same names
// then describe the captured unit's (Circe) rebirth.
struct CapturerRebirth {
    SquareRule square = SquareRule::Classic;
    Occupied occupied = Occupied::Strict;  // AntiCirce's default
    Rex rex = Rex::Inclusive;              // AntiCirce's default
    bool mirror = false;
    bool vertical_mirror = false;
    bool frischauf = false;
    bool clone = false;
    bool chameleon = false;
    std::array<Walk, WALK_NB> chameleon_cycle{};
    friend bool operator==(const CapturerRebirth&, const CapturerRebirth&) = default;
};

// An immutable set of rules, resolved once from the problem's conditions. Positions hold a
// pointer to it; threads share it read-only.
//
// Families: Circe sets reborn = Captured (default occupied Relaxed, rex Exclusive);
// AntiCirce reborn = Capturer (occupied Strict, rex Inclusive: a capture whose rebirth square
// is occupied is illegal); Circe + AntiCirce reborn = Both (the capturer first, by
// `both_capturer`, then the captured unit: `b6*a7[wPa7->a6][+bPa7]`); MarsCirce mars = true
// and AntiMarsCirce antimars = true with reborn = None, occupied Strict, rex Inclusive.
// SquareRule::Couscous means "the square of the other unit of the capture": under AntiCirce
// the capturer goes to the captured unit's classic square (Popeye flips the relevant piece).
struct RuleSet {
    Reborn reborn = Reborn::None;
    SquareRule square = SquareRule::Classic;
    Occupied occupied = Occupied::Relaxed;
    Rex rex = Rex::Exclusive;

    // Square adapters.
    bool mirror = false;           // the other colour's square (Mirror Circe)
    bool vertical_mirror = false;  // the square mirrored across the d/e line
    // Walk adapters.
    bool frischauf = false;  // promoted units are reborn on the promotion square of the capture file
    bool clone = false;      // the captured unit takes the capturer's walk
    bool chameleon = false;  // the reborn unit changes walk along `chameleon_cycle`
    std::array<Walk, WALK_NB> chameleon_cycle{};  // walk -> next walk (index: walk), NO_WALK = unchanged
    // Side adapter (Turncoats): the reborn unit changes colour once it stands on its rebirth
    // square (after a reborn pawn's promotion there), as in Popeye 4.104 ([+bRh8=w]).
    bool turncoat = false;
    // April: only units of these walks are reborn (bit 1 << walk of the reborn walk, after the
    // walk adapters); 0: every walk. The others are taken (or capture) as in orthodox chess.
    std::uint32_t april = 0;
    // Anti-Circe: a capture on the capturer's own rebirth square is illegal (Cheylan).
    bool cheylan = false;
    // Extra effects.
    bool atom = false;
    bool kamikaze = false;  // every capturer disappears for good
    bool alsatian = false;
    bool hydra = false;
    bool mars = false;      // captures start from the capturer's rebirth square
    bool antimars = false;  // non-captures start from the mover's rebirth square
    // WaitCapture (Popeye's relevant capture "last capture"): a capture does not reborn the
    // unit it takes, which waits (Position::parrain_piece) until the next capture of either
    // side; that capture reborns it, by `square` from its own capture square, then the unit it
    // takes waits in turn. With CaptureSquare this is Memory Circe.
    bool wait_capture = false;
    // Parrain: a capture made before the diagram (Condition ... LastCapture colour unit-square).
    Piece last_capture_piece{};
    Square last_capture_square = SQ_NONE;
    // reborn == Both only: the capturer's (AntiCirce) rebirth rules.
    CapturerRebirth both_capturer{};
    // Option CastlingMutuallyExclusive (not a condition, but a rule of the game): for the
    // castling of colour c on the king's (1) or queen's (0) side, index 2 * c + side, the
    // game-array rook squares of the opponent whose castling right it cancels.
    std::array<Bitboard, 4> castling_exclusive{};
    // The castling rights a castling `m` of colour `c` cancels for the opponent.
    Bitboard castling_cancels(Color c, bool king_side) const { return castling_exclusive[2 * c + (king_side ? 1 : 0)]; }

    // Neither rebirth nor any effect: the orthodox generator applies.
    bool orthodox() const;
    // The rule set as Popeye's condition words, for messages ("Circe Strict",
    // "AntiCirce Cheylan", "MarsCirce", "Circe, AntiCirce Super").
    std::string describe() const;
    friend bool operator==(const RuleSet&, const RuleSet&) = default;
};

// Under Circe + Anti-Circe (reborn == Both) the rules of the capturer's rebirth: r with the
// Anti-Circe half (both_capturer) as its square, occupied and rex rules and adapters, reborn
// Capturer; otherwise r.
RuleSet capturer_rules(const RuleSet& r);

// Whether rules r rebirth a unit of walk w (April restricts rebirth to its walks).
inline bool april_reborn(const RuleSet& r, Walk w) { return r.april == 0 || (r.april >> w) & 1u; }

// The rules a position must carry: `rules`, or null when there are none or they are orthodox.
inline const RuleSet* effective_rules(const RuleSet* rules) { return rules && !rules->orthodox() ? rules : nullptr; }

// Whether a pawn on its own first rank may step (and capture) one square (Parrain,
// ContraParrain, Cage); elsewhere it is immobile. Where it moves it also gives check
// (Position::attackers_to), as in Popeye 4.104 (issue 10; RULES.md section 5 amended).
inline bool first_rank_pawns_move(const RuleSet& r) {
    return r.square == SquareRule::Parrain || r.square == SquareRule::ContraParrain || r.square == SquareRule::Cage;
}

// Adds Option CastlingMutuallyExclusive's pairs (a white and a black game-array rook square,
// "a1h8") to `rules`: castling with either rook cancels the other's castling right.
void add_castling_exclusive(RuleSet& rules, const std::vector<std::pair<Square, Square>>& pairs);

// Popeye's chameleon cycle when none is given: S -> B -> R -> Q -> S.
std::array<Walk, WALK_NB> default_chameleon_cycle();

// Resolves Popeye conditions (as parsed into Condition values) into one rule set.
// Throws InputError(file, line, word, reason) naming the condition word that is unknown,
// unsupported or incompatible with the others.
RuleSet resolve_rules(const std::vector<Condition>& conditions, const std::string& file = "<conditions>", int line = 0);

}  // namespace rebirth
