#pragma once

#include <string>
#include <string_view>

namespace rebirth {

// ASCII case-insensitive equality.
bool iequals(std::string_view a, std::string_view b);
// ASCII lower / upper case copies.
std::string to_lower(std::string_view s);
std::string to_upper(std::string_view s);

}  // namespace rebirth
