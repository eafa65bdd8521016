#include "rebirth/walk.h"

#include "rebirth/text.h"

namespace rebirth {

namespace {

constexpr std::array<Vec, 16> kKingVecs{{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}};
constexpr std::array<Vec, 16> kRookVecs{{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
constexpr std::array<Vec, 16> kBishopVecs{{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}};
constexpr std::array<Vec, 16> kKnightVecs{{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}};

// Row order must match the Walk constants in types.h.
const std::array<WalkInfo, 9> kWalks{{
    {"", "", "", "none", WalkKind::None, 0, {}},
    {"K", "R", "K", "King", WalkKind::King, 8, kKingVecs},
    {"Q", "D", "D", "Queen", WalkKind::Rider, 8, kKingVecs},
    {"R", "T", "T", "Rook", WalkKind::Rider, 4, kRookVecs},
    {"B", "F", "L", "Bishop", WalkKind::Rider, 4, kBishopVecs},
    {"S", "C", "S", "Knight", WalkKind::Leaper, 8, kKnightVecs},
    {"P", "P", "B", "Pawn", WalkKind::Pawn, 0, {}},
    {"G", "S", "G", "Grasshopper", WalkKind::Hopper, 8, kKingVecs},
    {"N", "N", "N", "Nightrider", WalkKind::Rider, 8, kKnightVecs},
}};

}  // namespace

const WalkInfo& walk_info(Walk w) { return w < kWalks.size() ? kWalks[w] : kWalks[0]; }

int walk_count() { return static_cast<int>(kWalks.size()); }

std::string_view walk_code(Walk w, Language lang) {
    const WalkInfo& info = walk_info(w);
    switch (lang) {
        case Language::French:
            return info.code_fr;
        case Language::German:
            return info.code_de;
        default:
            return info.code_en;
    }
}

Walk walk_from_code(std::string_view code, Language lang) {
    if (code.empty()) return NO_WALK;
    for (int w = 1; w < walk_count(); ++w)
        if (iequals(walk_code(Walk(w), lang), code)) return Walk(w);
    return NO_WALK;
}

}  // namespace rebirth
