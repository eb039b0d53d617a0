/* SPDX-License-Identifier: MIT */
#include "cmd.h"
int cmd_report(int argc, char **argv) { return 2; }
int cmd_script(int argc, char **argv) { return 2; }
