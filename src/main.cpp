#include <cstdio>

int main() {
    std::fputs("rebirth: command line not built yet\n", stderr);
    return 1;
}
