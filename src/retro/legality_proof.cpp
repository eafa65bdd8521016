#include "rebirth/legality_proof.h"

#include <algorithm>
#include <array>
#include <sstream>

#include "rebirth/bitboard.h"
#include "rebirth/legality.h"
#include "rebirth/proof_builder.h"
#include "rebirth/retro.h"
#include "rebirth/retro_cage.h"
#include "rebirth/retro_certificate.h"

namespace rebirth {

namespace {

constexpr int kRetractions = 2;       // single moves retracted at most before a game is looked for
constexpr size_t kFewLastMoves = 12;  // retracted only when the sequences are at most this many

// Whether `game` replays from the game array (replay_game) to the diagram: its units (colour
// and walk), its side to move, every castling right it claims still held, and its en passant
// square (when it gives one) the last move's.
bool replays_to(const std::vector<Move>& game, const Setup& diagram) {
    const std::optional<Setup> end = replay_game(game, {});
    if (!end || !same_units(end->board, diagram.board) || end->side_to_move != diagram.side_to_move) return false;
    if ((diagram.castling & ~end->castling) != 0) return false;
    if (diagram.ep_square != SQ_NONE) {
        if (game.empty()) return false;
        const Move& last = game.back();
        const int step = int(last.to) - int(last.from);
        if (end->board[last.to].walk != PAWN || (step != 16 && step != -16) ||
            Square((int(last.from) + int(last.to)) / 2) != diagram.ep_square)
            return false;
    }
    return true;
}

}  // namespace

const char* LegalityProof::verdict_name() const {
    switch (verdict) {
        case Verdict::Legal:
            return "legal";
        case Verdict::Illegal:
            return "illegal";
        case Verdict::Unresolved:
            break;
    }
    return "unresolved";
}

std::string marks_broken(const std::vector<Move>& game, const LegalityMarks& marks) {
    std::array<bool, SQUARE_NB> promoted{};  // the unit on a square came from a promotion
    for (size_t i = 0; i < game.size(); ++i) {
        const Move& m = game[i];
        if (const Bitboard hit = touched_squares(m) & marks.frozen)
            return "half-move " + std::to_string(i + 1) + " moves the unit of " + square_name(lsb(hit)) +
                   ", marked frozen";
        promoted[m.to] = promoted[m.from] || m.kind == MoveKind::Promotion;
        promoted[m.from] = false;
    }
    for (Bitboard b = marks.promoted; b;)
        if (const Square sq = pop_lsb(b); !promoted[sq])
            return "the unit on " + square_name(sq) + ", marked promoted, is no promoted unit in the game";
    return "";
}

LegalityProof judge_legality(const Setup& diagram, int depth, const BuildLimits& limits, const LegalityMarks& marks) {
    LegalityProof proof;
    const LegalityVerdict v =
        analyze_orthodox_legality(diagram.board, diagram.side_to_move, diagram.castling, diagram.ep_square, marks);
    if (v.illegal) {
        proof.verdict = LegalityProof::Verdict::Illegal;
        proof.reason = v.reason;
        return proof;
    }
    if (!may_be_legal(diagram, depth)) {
        proof.verdict = LegalityProof::Verdict::Illegal;
        proof.reason =
            "every position one single move back (and up to " + std::to_string(depth) + " further back) is illegal";
        return proof;
    }
    if (cage_refutes(diagram)) {
        proof.verdict = LegalityProof::Verdict::Illegal;
        proof.reason =
            "caged units: no history of the units walled in near the kings or by each other, taken back "
            "move by move, leads to the game array";
        return proof;
    }
    // The diagram's last single moves, when it leaves few (a check that only an en passant
    // capture or a promotion gives, say): a game to the position they lead back to, then
    // those moves. Then the diagram gets half the time, and the sequences share the rest.
    std::vector<std::vector<std::vector<UnMove>>> levels{possible_last_moves(diagram, 1, depth)};
    const bool few = !levels[0].empty() && levels[0].size() <= kFewLastMoves;
    // The sequences of the last n single moves (worked out once).
    const auto sequences = [&](int n) -> const std::vector<std::vector<UnMove>>& {
        while (int(levels.size()) < n) levels.push_back(possible_last_moves(diagram, int(levels.size()) + 1, depth));
        return levels[size_t(n - 1)];
    };
    // A game to the diagram within `diagram_seconds`, else (few sequences) to the positions
    // the sequences lead back to, sharing `back_seconds` (0: no limit, the nodes of `limits`).
    const auto attempt = [&](double diagram_seconds, double back_seconds) {
        BuildLimits first = limits;
        first.seconds = diagram_seconds;
        if (auto game = build_proof_game(diagram, first, marks.frozen);
            game && replays_to(*game, diagram) && marks_broken(*game, marks).empty()) {
            proof.verdict = LegalityProof::Verdict::Legal;
            proof.game = std::move(*game);
            return true;
        }
        for (int n = 1; few && n <= kRetractions; ++n) {
            const std::vector<std::vector<UnMove>>& last = sequences(n);
            if (last.empty() || last.size() > kFewLastMoves) break;
            BuildLimits back = limits;
            back.seconds = back_seconds / double(kRetractions * last.size());
            back.max_nodes = std::max(1000L, limits.max_nodes / 2);
            for (const std::vector<UnMove>& seq : last) {
                // A sequence that moves a frozen unit breaks its mark: no game for it.
                if (std::any_of(seq.begin(), seq.end(),
                                [&](const UnMove& u) { return (touched_squares(u.move) & marks.frozen) != 0; }))
                    continue;
                Setup earlier = diagram;
                for (const UnMove& u : seq) earlier = retract_keeping_rights(earlier, u);
                auto game = build_proof_game(earlier, back, marks.frozen);
                if (!game) continue;
                for (auto it = seq.rbegin(); it != seq.rend(); ++it) game->push_back(it->move);
                if (replays_to(*game, diagram) && marks_broken(*game, marks).empty()) {
                    proof.verdict = LegalityProof::Verdict::Legal;
                    proof.game = std::move(*game);
                    return true;
                }
            }
        }
        return false;
    };
    if (few && limits.seconds > 0) {
        // Within a time limit, in rounds of 1/16, 1/8, 1/4 and 1/2 of it, each half for the
        // diagram and half for the sequences: a diagram that only its last moves explain (an
        // en passant double check) does not wait for the diagram's half of the time first.
        for (double round = limits.seconds / 16; round <= limits.seconds / 2 * 1.0001; round *= 2)
            if (attempt(round / 2, round / 2)) return proof;
    } else if (attempt(few ? limits.seconds / 2 : limits.seconds, limits.seconds / 2)) {
        return proof;
    }
    std::ostringstream why;
    why << "no illegality proved (static analysis, retractions " << depth << " deep) and no game found";
    if (limits.seconds > 0) why << " in " << limits.seconds << " s";
    proof.reason = why.str();
    return proof;
}

}  // namespace rebirth
