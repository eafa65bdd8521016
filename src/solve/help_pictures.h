#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "core/exact_set.h"
#include "rebirth/goal.h"
#include "rebirth/position.h"

namespace rebirth {

// Target-position ("intelligent") search for help play ending in mate or stalemate, in
// orthodox chess.
//
// A picture fixes some units of the final position. Mate: the mated king's square k, one
// checking unit on a square attacking k (the squares between them empty), and for every
// flight of k not attacked by the units already fixed: a defending unit standing on it or
// one more attacking unit on a square attacking it (the squares between empty); kept only
// when every way the placed units leave to parry the check can still be stopped by a unit
// not in the picture. Stalemate: the king's square, then every defending unit placed or
// taken, until the placed units alone are a stalemate (each move still legal among them, the
// king's own included, stopped by one more unit in its way, guarding, or pinning). Pawns
// stay pawns or promote (each walk apart where walks decide what moves). Every final
// position fits some picture, so searching with each picture's budgets (the empty-board
// distances of its units to their squares, summed per side; one move per occupied square
// that must be empty; one move of the goal side per unit still to be taken) finds every
// play. The search records the positions on every play found; help play then follows them
// alone. Sound where distance.h's distances are: orthodox chess, no fairy units.
struct HelpGuide {
    ExactSet good;  // guide_key of every position on a play found
};

// The key of pos with `remaining` half-moves of the play left, as HelpGuide::good holds it.
void guide_key(const Position& pos, int remaining, std::string& out);

// Fills guide.good for the help plays of `len` half-moves from root whose last half-move, by
// `goal_side`, reaches `goal` (Mate or Stalemate; a move of the goal side reaching it earlier
// ends a play: it is not followed);
// with `series`, for the series of `len` moves of the side to move (the goal side passing,
// never left in check) followed by the goal side's mating move (ser-h#), keyed by the
// series moves left. `visit` is called for every node searched (it may throw to stop).
// Returns false, the guide then unusable, where the search does not apply (another goal,
// rules, fairy units, no king to mate) or would need more than `max_pictures` pictures.
bool build_help_guide(const Position& root, int len, bool series, Color goal_side, Goal goal, HelpGuide& guide,
                      const std::function<void()>& visit, std::size_t max_pictures = 20000);

// The pictures of one root and play, made once for its longest length and reused for the
// shorter ones: budgets only grow with the length, so the longest's pictures cover every
// shorter play, and each length's search drops those it cannot reach. One cache per root,
// goal side, goal and kind of play; safe to share between threads.
class HelpPictureCache {
  public:
    HelpPictureCache();
    ~HelpPictureCache();
    struct Data;

  private:
    friend bool build_help_guide(const Position&, int, int, bool, Color, Goal, HelpGuide&, HelpPictureCache&,
                                 const std::function<void()>&, std::size_t);
    std::unique_ptr<Data> data_;
    bool tried_ = false;
    std::mutex mutex_;
};

// build_help_guide for a play of `len` with the pictures of `longest` (>= len) from `cache`,
// made there on first use; where the longest's pictures are too many, those of `len` alone.
bool build_help_guide(const Position& root, int len, int longest, bool series, Color goal_side, Goal goal,
                      HelpGuide& guide, HelpPictureCache& cache, const std::function<void()>& visit,
                      std::size_t max_pictures = 20000);

}  // namespace rebirth
