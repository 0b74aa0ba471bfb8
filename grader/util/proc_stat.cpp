#include "util/proc_stat.h"

#include <cstdio>
#include <cstring>

namespace hpclab {

std::optional<ProcStat> proc_stat(int pid)
{
    std::FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
    if (!f) return std::nullopt;
    char line[4096];
    const std::size_t got = std::fread(line, 1, sizeof line - 1, f);
    std::fclose(f);
    line[got] = '\0';
    const char* open = std::strchr(line, '(');
    const char* close = std::strrchr(line, ')');
    ProcStat s;
    if (!open || !close || close < open || std::sscanf(close + 1, " %c %d", &s.state, &s.parent) != 2)
        return std::nullopt;
    s.name.assign(open + 1, static_cast<std::size_t>(close - open - 1));
    return s;
}

}  // namespace hpclab
