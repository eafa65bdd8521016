#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "rebirth/types.h"

namespace rebirth {

// How a walk moves. Leaper: one step along each vector. Rider: repeated steps until blocked.
// Hopper: along each vector over exactly one unit (the hurdle) to the square just beyond.
enum class WalkKind : std::uint8_t { None, King, Pawn, Leaper, Rider, Hopper };

struct Vec {
    std::int8_t df = 0;  // file delta
    std::int8_t dr = 0;  // rank delta
};

// One row of the walk table. Adding a fairy walk means adding a row here (and in walk.cpp).
struct WalkInfo {
    std::string_view code_en;  // Popeye piece code, English (e.g. "S", "G", "N")
    std::string_view code_fr;  // French
    std::string_view code_de;  // German
    std::string_view name;     // English name
    WalkKind kind = WalkKind::None;
    std::uint8_t nvecs = 0;
    std::array<Vec, 16> vecs{};
};

const WalkInfo& walk_info(Walk w);
// Number of rows in the table (walk ids are 1 .. walk_count()-1).
int walk_count();
// Popeye code of the walk in the given language, e.g. "S" / "C" / "S" for the knight.
std::string_view walk_code(Walk w, Language lang);
// Walk whose code (case-insensitive) is `code` in `lang`; NO_WALK if none.
Walk walk_from_code(std::string_view code, Language lang);
// True for the walks a promotion may always choose (Q R B S); fairy walks present in the
// diagram are added by the caller.
constexpr bool is_orthodox_walk(Walk w) { return w >= KING && w <= PAWN; }

}  // namespace rebirth
