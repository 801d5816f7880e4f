// SPDX-License-Identifier: Apache-2.0
import TabServer

extension DemoCatalog {
    static func makeCollections() -> [String: Collection] {
        [
            "music": Collection(
                segment: "albums", heading: "Albums", childSegment: "tracks", childHeading: "Tracks",
                items: [
                    Item(
                        title: "Northern Lights", creator: "Mara Vale", year: 2026, genre: "Indie Pop", price: "$9.99",
                        hue: 205,
                        blurb:
                            "Eleven songs written over one long Arctic winter, recorded live to tape with a string quartet.",
                        children: [
                            ("Aurora", "3:41"), ("Cold Harbour", "4:02"), ("Paper Boats", "3:18"), ("Tromsø", "5:10"),
                            ("Glasshouse", "3:55"), ("The Long Night", "6:21"), ("Ferry Lights", "3:37"),
                            ("Home by Spring", "4:44"),
                        ]),
                    Item(
                        title: "Concrete Garden", creator: "The Lowlands", year: 2025, genre: "Alternative",
                        price: "$10.99", hue: 12,
                        blurb: "A loud, bright second record about growing things in unlikely places.",
                        children: [
                            ("Weeds", "2:58"), ("Rooftop", "3:33"), ("Sodium", "4:12"), ("Overpass", "3:01"),
                            ("Bloom", "4:40"), ("Static Summer", "3:22"),
                        ]),
                    Item(
                        title: "Blue Hour Sessions", creator: "Theo Marsh Trio", year: 2024, genre: "Jazz",
                        price: "$8.99", hue: 230,
                        blurb: "Piano, bass and brushes: standards and three originals caught in a single evening.",
                        children: [
                            ("Blue Hour", "6:02"), ("Night Walk", "5:15"), ("Rain on Ninth", "7:30"),
                            ("Lullaby for K.", "4:48"),
                            ("Last Train", "5:57"),
                        ]),
                    Item(
                        title: "Signal Fires", creator: "Kestrel", year: 2026, genre: "Electronic", price: "$11.99",
                        hue: 280,
                        blurb: "Slow-building synth pieces made from field recordings of lighthouses.",
                        children: [
                            ("Beacon", "5:44"), ("Morse", "4:20"), ("Low Tide", "6:08"), ("Keeper", "5:02"),
                            ("Fog Signal", "7:15"),
                            ("Dawn Watch", "4:33"), ("Return", "3:59"),
                        ]),
                    Item(
                        title: "Dust & Gold", creator: "Ada Ruiz", year: 2023, genre: "Country", price: "$9.49",
                        hue: 38,
                        blurb: "Story songs from the high desert, with pedal steel and a lot of open road.",
                        children: [
                            ("Mesa", "3:49"), ("Gold Rush Heart", "3:27"), ("Two Lane", "4:05"), ("Saguaro", "3:12"),
                            ("Coming Home Slow", "4:31"),
                        ]),
                    Item(
                        title: "Chamber Light", creator: "Orchestra of the Lakes", year: 2022, genre: "Classical",
                        price: "$12.99", hue: 160,
                        blurb: "New chamber works by four young composers, premiered at the summer festival.",
                        children: [
                            ("Prelude in Green", "6:40"), ("Three Studies: I", "4:10"), ("Three Studies: II", "3:55"),
                            ("Three Studies: III", "5:25"), ("Nocturne", "8:02"),
                        ]),
                    Item(
                        title: "Midnight Arcade", creator: "Pixel Hearts", year: 2025, genre: "Synthwave",
                        price: "$7.99", hue: 320,
                        blurb: "Neon-soaked anthems for late drives and high scores.",
                        children: [
                            ("Insert Coin", "3:30"), ("Level Up", "4:01"), ("Neon Rain", "4:45"),
                            ("High Score", "3:58"),
                            ("Game Over (Reprise)", "2:40"),
                        ]),
                    Item(
                        title: "Roots & Rivers", creator: "Samuel Okafor", year: 2024, genre: "Afrobeat",
                        price: "$10.49", hue: 95,
                        blurb: "Horns, talking drum and a ten-piece band on a record made for dancing.",
                        children: [
                            ("River Song", "5:12"), ("Market Day", "6:30"), ("Lagos Rain", "4:55"), ("Elders", "7:04"),
                            ("Sunrise Highlife", "5:40"),
                        ]),
                ]),
            "movies": Collection(
                segment: "films", heading: "Films", childSegment: "extras", childHeading: "Extras",
                items: [
                    Item(
                        title: "The Quiet Orbit", creator: "Dir. Lena Fisk", year: 2026, genre: "Science Fiction",
                        price: "$19.99", hue: 215,
                        blurb: "An engineer alone on a relay station hears a voice on a channel nobody uses.",
                        children: [("Trailer", "2:14"), ("Building the Station", "18:30"), ("Deleted Scenes", "11:02")]),
                    Item(
                        title: "Salt and Stone", creator: "Dir. Tomas Reyes", year: 2025, genre: "Drama",
                        price: "$14.99", hue: 25,
                        blurb: "Three generations of a fishing family face the last season of the harbour.",
                        children: [("Trailer", "2:01"), ("The Harbour Town", "12:44")]),
                    Item(
                        title: "Paper Tigers", creator: "Dir. June Park", year: 2024, genre: "Comedy", price: "$12.99",
                        hue: 50,
                        blurb: "Two rival origami clubs, one national championship, zero chill.",
                        children: [("Trailer", "1:58"), ("Gag Reel", "6:20"), ("Folding Masterclass", "9:12")]),
                    Item(
                        title: "Night Shift", creator: "Dir. Ravi Menon", year: 2026, genre: "Thriller",
                        price: "$17.99", hue: 260,
                        blurb: "A hospital porter finds a pattern in the overnight admissions.",
                        children: [("Trailer", "2:22"), ("Director's Commentary", "104:00")]),
                    Item(
                        title: "The Long Way North", creator: "Dir. Ingrid Sol", year: 2023, genre: "Documentary",
                        price: "$9.99", hue: 190,
                        blurb: "A year following the migration of the last wild reindeer herds.",
                        children: [("Trailer", "2:30"), ("Filming in the Snow", "22:10")]),
                    Item(
                        title: "Brass Hearts", creator: "Dir. Marcus Bell", year: 2025, genre: "Musical",
                        price: "$15.99", hue: 5,
                        blurb: "A failing marching band gets one more parade to save itself.",
                        children: [("Trailer", "2:05"), ("Sing-along Version", "118:00")]),
                ]),
            "tv": Collection(
                segment: "shows", heading: "Shows", childSegment: "episodes", childHeading: "Episodes",
                items: [
                    Item(
                        title: "Harbour Lights", creator: "Season 2", year: 2026, genre: "Drama", price: "$24.99",
                        hue: 200,
                        blurb: "A small-town harbour master keeps the peace, and a few secrets.",
                        children: [
                            ("The Return", "52 min"), ("Low Water", "49 min"), ("Storm Warning", "51 min"),
                            ("Salvage", "50 min"), ("Mayday", "55 min"), ("High Tide", "58 min"),
                        ]),
                    Item(
                        title: "Kitchen Chemistry", creator: "Season 4", year: 2025, genre: "Food", price: "$14.99",
                        hue: 30,
                        blurb: "The science behind the perfect loaf, the crispest fry and the silkiest sauce.",
                        children: [
                            ("Bread", "24 min"), ("Emulsions", "23 min"), ("Caramel", "25 min"),
                            ("Fermentation", "24 min"),
                        ]),
                    Item(
                        title: "Orbiters", creator: "Season 1", year: 2026, genre: "Sci-Fi", price: "$29.99", hue: 250,
                        blurb: "Six strangers wake on a ship with no crew and one working window.",
                        children: [
                            ("Wake", "58 min"), ("Window", "54 min"), ("Signal", "56 min"), ("Drift", "53 min"),
                            ("Burn", "61 min"),
                        ]),
                    Item(
                        title: "Office Hours", creator: "Season 3", year: 2024, genre: "Comedy", price: "$19.99",
                        hue: 120,
                        blurb: "A community college faculty lounge, and everyone in it.",
                        children: [
                            ("Syllabus", "22 min"), ("Tenure", "21 min"), ("Field Trip", "22 min"),
                            ("Finals", "23 min"),
                        ]),
                ]),
            "podcasts": Collection(
                segment: "shows", heading: "Shows", childSegment: "episodes", childHeading: "Episodes",
                items: [
                    Item(
                        title: "The Long Answer", creator: "Northfield Radio", year: 2026, genre: "Society",
                        price: "Free", hue: 340,
                        blurb: "One question a week, answered slowly and properly.",
                        children: [
                            ("Why do cities have rivers?", "41 min"), ("Who owns the sky?", "38 min"),
                            ("How quiet is quiet?", "45 min"),
                        ]),
                    Item(
                        title: "Build Log", creator: "Priya & Dan", year: 2025, genre: "Technology", price: "Free",
                        hue: 180,
                        blurb: "Two engineers ship a product in public, mistakes included.",
                        children: [
                            ("Week 1: The Idea", "32 min"), ("Week 2: The Schema", "36 min"),
                            ("Week 3: The Outage", "44 min"),
                            ("Week 4: The Launch", "40 min"),
                        ]),
                    Item(
                        title: "Small Histories", creator: "Museum of Everyday", year: 2024, genre: "History",
                        price: "Free", hue: 60,
                        blurb: "The stories behind ordinary objects: the paperclip, the zipper, the tea bag.",
                        children: [("The Paperclip", "28 min"), ("The Zipper", "31 min"), ("The Tea Bag", "27 min")]),
                    Item(
                        title: "Deep Field", creator: "Observatory Hill", year: 2026, genre: "Science", price: "Free",
                        hue: 240,
                        blurb: "Astronomers talk about the one image that changed their minds.",
                        children: [("Pale Dots", "47 min"), ("Dark Matter Maps", "52 min")]),
                ]),
            "audiobooks": Collection(
                segment: "books", heading: "Books", childSegment: "chapters", childHeading: "Chapters",
                items: [
                    Item(
                        title: "The Cartographer's Daughter", creator: "Elin Maas", year: 2025,
                        genre: "Historical Fiction", price: "$21.99", hue: 35,
                        blurb:
                            "Read by Nora Haddad. A map with one island too many sends a young woman across the North Sea.",
                        children: [
                            ("The Extra Island", "32 min"), ("Leaving Bergen", "41 min"), ("The Chart Room", "37 min"),
                            ("Landfall", "44 min"),
                        ]),
                    Item(
                        title: "Small Engines", creator: "Oskar Lind", year: 2024, genre: "Essays", price: "$14.99",
                        hue: 150,
                        blurb: "Read by the author. Essays on repair, patience and the machines we keep.",
                        children: [
                            ("Carburettor", "22 min"), ("The Lawn Mower", "25 min"), ("Grandfather's Clock", "31 min"),
                        ]),
                    Item(
                        title: "Ninety Days of Rain", creator: "Aiko Mori", year: 2026, genre: "Literary Fiction",
                        price: "$24.99", hue: 210,
                        blurb: "Read by Ken Sato. A bookshop, a flood and a season of unexpected guests.",
                        children: [
                            ("The First Week", "38 min"), ("High Water", "40 min"), ("The Guests", "36 min"),
                            ("Drying Out", "33 min"), ("Sun", "29 min"),
                        ]),
                    Item(
                        title: "How Bridges Stand", creator: "Dr. Femi Adeyemi", year: 2023, genre: "Science",
                        price: "$18.99", hue: 100,
                        blurb: "Read by the author. The physics and history of spans from rope to steel.",
                        children: [("Rope and Stone", "35 min"), ("The Arch", "39 min"), ("Suspension", "42 min")]),
                ]),
        ]
    }
}
