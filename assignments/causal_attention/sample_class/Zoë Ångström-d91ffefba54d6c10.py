# Sample submission: another student, under the spelling the kit once gave Zoë Ångström's
# name in file names: each must keep a result file and a feedback page of their own.
import numpy as np
