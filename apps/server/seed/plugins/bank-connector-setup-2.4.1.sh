#!/bin/sh
# Bank Connector for Tally: demo installer for Linux (portal demo data).
# It copies nothing and changes nothing; it only shows what would be installed.
set -eu
echo "Bank Connector for Tally 2.4.1"
echo "This is the demo build shipped with the customer portal's sample data."
echo "A production installer registers the connector with TallyPrime."
