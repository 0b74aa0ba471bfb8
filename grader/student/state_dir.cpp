#include "student/state_dir.h"

#include <cstdlib>

namespace hpclab {

std::filesystem::path state_dir(const std::filesystem::path& course_root)
{
    if (const char* s = std::getenv("HPCLAB_STATE"); s && *s) return s;
    return course_root / ".hpclab";
}

}  // namespace hpclab
