"""The base every domain uses: the ruleset object and its presets, the column schema, segment arithmetic, text columns, date selection and yaku labels."""
