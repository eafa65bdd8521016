#include "rebirth/html_report.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "rebirth/claims.h"

namespace rebirth {

namespace {

std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    return out;
}

std::string str(const nlohmann::json& j, const char* key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

std::vector<std::string> strings(const nlohmann::json& j, const char* key) {
    std::vector<std::string> out;
    if (j.contains(key) && j[key].is_array())
        for (const auto& x : j[key])
            if (x.is_string()) out.push_back(x.get<std::string>());
    return out;
}

// The chess glyph of a FEN letter (white outlined, black filled), or the letter itself.
std::string glyph(char c) {
    switch (c) {
        case 'K':
            return "\u2654";
        case 'Q':
            return "\u2655";
        case 'R':
            return "\u2656";
        case 'B':
            return "\u2657";
        case 'N':
            return "\u2658";
        case 'P':
            return "\u2659";
        case 'k':
            return "\u265A";
        case 'q':
            return "\u265B";
        case 'r':
            return "\u265C";
        case 'b':
            return "\u265D";
        case 'n':
            return "\u265E";
        case 'p':
            return "\u265F";
        default:
            return std::string(1, c);
    }
}

// A FEN placement field as an SVG board (34 px squares, coordinates around it). `id` names the
// group of units, which the step-through script redraws.
std::string svg_board(const std::string& placement, const std::string& id) {
    constexpr int kSq = 34, kMargin = 16;
    std::string out = "<svg class=\"board\" width=\"" + std::to_string(8 * kSq + 2 * kMargin) + "\" height=\"" +
                      std::to_string(8 * kSq + 2 * kMargin) + "\" xmlns=\"http://www.w3.org/2000/svg\">";
    for (int r = 0; r < 8; ++r)
        for (int f = 0; f < 8; ++f)
            out += "<rect x=\"" + std::to_string(kMargin + f * kSq) + "\" y=\"" + std::to_string(kMargin + r * kSq) +
                   "\" width=\"" + std::to_string(kSq) + "\" height=\"" + std::to_string(kSq) + "\" fill=\"" +
                   ((r + f) % 2 ? "#b58863" : "#f0d9b5") + "\"/>";
    for (int i = 0; i < 8; ++i) {
        out += "<text class=\"coord\" x=\"" + std::to_string(kMargin + i * kSq + kSq / 2) + "\" y=\"" +
               std::to_string(8 * kSq + 2 * kMargin - 3) + "\">" + char('a' + i) + "</text>";
        out += "<text class=\"coord\" x=\"6\" y=\"" + std::to_string(kMargin + i * kSq + kSq / 2 + 4) + "\">" +
               char('8' - i) + "</text>";
    }
    out += "<g id=\"" + id + "\">";
    int r = 0, f = 0;
    for (char c : placement) {
        if (c == '/') {
            ++r;
            f = 0;
        } else if (c >= '1' && c <= '8') {
            f += c - '0';
        } else {
            out += "<text class=\"unit " + std::string(std::isupper(static_cast<unsigned char>(c)) ? "w" : "b") +
                   "\" x=\"" + std::to_string(kMargin + f * kSq + kSq / 2) + "\" y=\"" +
                   std::to_string(kMargin + r * kSq + kSq - 7) + "\">" + glyph(c) + "</text>";
            ++f;
        }
    }
    return out + "</g></svg>";
}

constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:1.5em;max-width:70em}
table.summary td,table.summary th{border:1px solid #999;padding:.2em .7em;text-align:right}
table.summary{border-collapse:collapse;margin-bottom:1.5em}
.problem{border-top:2px solid #444;padding:.8em 0;display:flow-root}
.problem svg{float:left;margin-right:1.2em}
.coord{font-size:10px;fill:#555;text-anchor:middle}
.unit{font-size:28px;text-anchor:middle}
.unit.w{fill:#fff;stroke:#000;stroke-width:.6px}.unit.b{fill:#000}
.verdict{font-weight:bold;padding:.1em .5em;border-radius:.3em}
.v-sound{background:#bfe5bf}.v-cooked{background:#f7c6a3}.v-missing{background:#f4a3a3}
.v-dual{background:#f8e08e}.v-unverified{background:#ddd}.v-bad-input{background:#f4a3a3}
.lines{display:grid;grid-template-columns:1fr 1fr;gap:1em;clear:none}
.lines ol{font-family:monospace;font-size:90%;padding-left:1.5em}
li.wrong,li.cook{background:#fde2c4}
.steps button{margin-right:.4em}
)";

constexpr const char* kScript = R"(const glyphs={K:'\u2654',Q:'\u2655',R:'\u2656',B:'\u2657',N:'\u2658',P:'\u2659',
k:'\u265A',q:'\u265B',r:'\u265C',b:'\u265D',n:'\u265E',p:'\u265F'};
function draw(id,placement){const g=document.getElementById(id);let s='',r=0,f=0;
for(const c of placement){if(c==='/'){r++;f=0;}else if(c>='1'&&c<='8'){f+=+c;}
else{s+='<text class="unit '+(c===c.toUpperCase()?'w':'b')+'" x="'+(16+f*34+17)+'" y="'+(16+r*34+27)+'">'+(glyphs[c]||c)+'</text>';f++;}}
g.innerHTML=s;}
function step(ctl,board,d){const el=document.getElementById(ctl);const boards=JSON.parse(el.dataset.boards);
let i=Math.max(0,Math.min(boards.length-1,(+el.dataset.at)+d));el.dataset.at=i;draw(board,boards[i]);
el.querySelector('.at').textContent=i+'/'+(boards.length-1);}
)";

}  // namespace

std::string html_report(const nlohmann::json& report) {
    const nlohmann::json summary = report.value("summary", nlohmann::json::object());
    const nlohmann::json problems = report.value("problems", nlohmann::json::array());
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rebirth cook-check "
        "report</title><style>";
    out += kStyle;
    out += "</style><script>";
    out += kScript;
    out +=
        "</script></head><body>\n<h1>rebirth cook-check report</h1>\n<table class=\"summary\" id=\"summary\"><tr>"
        "<th>problems</th>";
    for (const char* v : kClaimVerdicts) out += std::string("<th>") + v + "</th>";
    out +=
        "<th>seconds</th></tr><tr><td id=\"count-problems\">" + std::to_string(summary.value("problems", 0)) + "</td>";
    for (const char* v : kClaimVerdicts)
        out += std::string("<td id=\"count-") + v + "\">" + std::to_string(summary.value(v, 0)) + "</td>";
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", summary.value("seconds", 0.0));
    out += std::string("<td>") + seconds + "</td></tr></table>\n";
    int n = 0;
    for (const auto& p : problems) {
        const std::string id = "p" + std::to_string(n++);
        const std::string verdict = str(p, "verdict");
        out += "<div class=\"problem\" id=\"" + id + "\" data-verdict=\"" + escape(verdict) + "\">";
        if (!str(p, "diagram").empty()) out += svg_board(str(p, "diagram"), id + "-units");
        out += "<h2>" + escape(str(p, "file")) + "</h2><p><span class=\"verdict v-" + escape(verdict) + "\">" +
               escape(verdict) + "</span>";
        if (!str(p, "stipulation").empty()) out += " &nbsp; " + escape(str(p, "stipulation"));
        if (!str(p, "conditions").empty()) out += " &nbsp; " + escape(str(p, "conditions"));
        out += "</p>";
        if (!str(p, "why").empty()) out += "<p>" + escape(str(p, "why")) + "</p>";
        for (const std::string& d : strings(p, "duals")) out += "<p class=\"dual\">dual " + escape(d) + "</p>";
        const std::vector<std::string> claimed = strings(p, "claimed_lines"), games = strings(p, "games"),
                                       cooks = strings(p, "cooks"), missing = strings(p, "missing");
        if (!claimed.empty() || !games.empty()) {
            out += "<div class=\"lines\"><div><h3>claimed</h3><ol>";
            for (size_t i = 0; i < claimed.size(); ++i) {
                // A claimed line that is no solution: its entry in `missing` starts "game N " (proof
                // games) or "claim N ".
                const std::string number = std::to_string(i + 1) + " ";
                std::string why;
                for (const std::string& m : missing)
                    if (m.rfind("game " + number, 0) == 0 || m.rfind("claim " + number, 0) == 0) why = m;
                out += "<li" + std::string(why.empty() ? "" : " class=\"wrong\" title=\"" + escape(why) + "\"") + ">" +
                       escape(claimed[i]) +
                       (why.empty() ? "" : " <b>(" + escape(why.substr(why.find(':') + 2)) + ")</b>") + "</li>";
            }
            out += "</ol></div><div><h3>found</h3><ol>";
            for (const std::string& g : games) {
                const bool cook = std::find(cooks.begin(), cooks.end(), g) != cooks.end();
                out += "<li" + std::string(cook ? " class=\"cook\"" : "") + ">" + escape(g) +
                       (cook ? " <b>(not claimed)</b>" : "") + "</li>";
            }
            out += "</ol></div></div>";
            for (const std::string& t : strings(p, "trees")) out += "<pre class=\"tree\">" + escape(t) + "</pre>";
        }
        if (p.contains("boards") && p["boards"].is_array())
            for (size_t g = 0; g < p["boards"].size(); ++g) {
                const std::string board_id = id + "-units", ctl = id + "-game" + std::to_string(g + 1);
                const nlohmann::json& boards = p["boards"][g];
                if (!boards.is_array() || boards.empty() || str(p, "diagram").empty()) continue;
                const auto button = [&](int d, const char* label) {
                    return "<button onclick=\"step('" + ctl + "','" + board_id + "'," + std::to_string(d) + ")\">" +
                           label + "</button>";
                };
                out += "<p class=\"steps\" id=\"" + ctl + "\" data-at=\"" + std::to_string(boards.size() - 1) +
                       "\" data-boards=\"" + escape(boards.dump()) + "\">game " + std::to_string(g + 1) + ": " +
                       button(-999, "|&lt;") + button(-1, "&lt;") + button(1, "&gt;") + button(999, "&gt;|") +
                       " <span class=\"at\">" + std::to_string(boards.size() - 1) + "/" +
                       std::to_string(boards.size() - 1) + "</span></p>";
            }
        out += "</div>\n";
    }
    return out + "</body></html>\n";
}

}  // namespace rebirth
