#include "rules/rebirth_square.h"

namespace rebirth {

Walk reborn_walk(const RuleSet& rules, const CaptureFacts& f) {
    Walk w = f.unit.walk;
    if (rules.clone && f.capturer.walk != KING && f.capturer_walk_before != NO_WALK) w = f.capturer_walk_before;
    if (rules.chameleon && w < rules.chameleon_cycle.size() && rules.chameleon_cycle[w] != NO_WALK)
        w = rules.chameleon_cycle[w];
    return w;
}

Square rebirth_square(const RuleSet& rules, const CaptureFacts& f, Walk walk) {
    const Color c = f.unit.color;
    // The colour whose home squares count (Mirror: the other side's).
    const Color home = rules.mirror ? ~c : c;
    const bool promoted = rules.frischauf && (f.unit.flags & PF_PROMOTED);
    const Square t = f.capture;
    Square r = SQ_NONE;
    switch (rules.square) {
        case SquareRule::Classic:
            r = classic_rebirth_square(walk, home, t, promoted);
            break;
        case SquareRule::File: {
            Square cl = classic_rebirth_square(walk, home, t, promoted);
            r = make_square(file_of(t), rank_of(cl));
            break;
        }
        case SquareRule::Rank: {
            // The home file moved to the capture rank. Rooks, bishops and knights take the
            // home file (of either colour) that keeps the capture square's colour, as Popeye
            // 4.104 does (TESTS/circe.inp: Sc4*e3[+bRa3], Rd5*c5[+bSg5]).
            Square cl = classic_rebirth_square(walk, home, t, promoted);
            r = make_square(file_of(cl), rank_of(t));
            const bool rbs = !promoted && (walk == ROOK || walk == BISHOP || walk == KNIGHT);
            if (rbs && is_dark(r) != is_dark(t)) r = make_square(7 - file_of(cl), rank_of(t));
            break;
        }
        case SquareRule::Symmetry:
            r = make_square(7 - file_of(t), 7 - rank_of(t));
            break;
        case SquareRule::VerticalSymmetry:
            r = make_square(7 - file_of(t), rank_of(t));
            break;
        case SquareRule::HorizontalSymmetry:
            r = make_square(file_of(t), 7 - rank_of(t));
            break;
        case SquareRule::Diagram:
            r = f.origin;
            break;
        case SquareRule::PWC:
            r = f.from;
            break;
        case SquareRule::Antipodes:
            r = make_square((file_of(t) + 4) % 8, (rank_of(t) + 4) % 8);
            break;
        case SquareRule::Equipollents: {
            int df = file_of(f.to) - file_of(f.from), dr = rank_of(f.to) - rank_of(f.from);
            int nf = file_of(t) + df, nr = rank_of(t) + dr;
            r = on_board(nf, nr) ? make_square(nf, nr) : SQ_NONE;
            break;
        }
        case SquareRule::Couscous:
            r = classic_rebirth_square(f.capturer.walk, rules.mirror ? ~f.capturer.color : f.capturer.color, t,
                                       rules.frischauf && (f.capturer.flags & PF_PROMOTED));
            break;
        case SquareRule::Diametral: {
            Square cl = classic_rebirth_square(walk, home, t, promoted);
            r = make_square(7 - file_of(cl), 7 - rank_of(cl));
            break;
        }
        case SquareRule::CaptureSquare:
            r = t;
            break;
        default:
            r = SQ_NONE;
            break;
    }
    if (r != SQ_NONE && rules.vertical_mirror) r = mirrored_file(r);
    return r;
}

}  // namespace rebirth
