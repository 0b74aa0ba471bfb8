// A low layer that includes a higher one: the layering check must name it.
#pragma once
#include "high/high.h"
